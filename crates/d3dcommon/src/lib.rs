//! The type and class of a shader variable, as both instruction families store them.
//!
//! Direct3D 9's constant table (`CTAB`, and the `DBUG` block's types) records a
//! variable's type as a `D3DXPARAMETER_TYPE` and its class as a `D3DXPARAMETER_CLASS`
//! (Microsoft's D3DXPARAMETER_TYPE and D3DXPARAMETER_CLASS pages, header
//! `d3dx9shader.h`). Direct3D 10 and later reflection (`RDEF`) records them as a
//! `D3D_SHADER_VARIABLE_TYPE` and a `D3D_SHADER_VARIABLE_CLASS` (`d3dcommon.h`), which
//! extend those: the same values 0 (`void`) to 18 (`vertexfragment`) and 0 (scalar) to
//! 5 (struct), after which they diverge (19 is `D3DXPT_UNSUPPORTED` in the first and
//! `D3D_SVT_UINT` in the second; classes 6 and 7, the interface class and pointer, are
//! only in the second).
//!
//! The shared values are written here once. Each family declares its own enumeration
//! with [`variable_type_enum!`] and [`variable_class_enum!`], listing only the values it
//! alone has (`d3dbc::ctab::ParamType`, `dxbc::rdef::VariableType`...); the enumerations
//! stay two types, as the two formats are, with the same variant names where they share
//! a value.
//!
//! [`text::until_nul`] reads the NUL-terminated names both families' chunks hold.
//!
//! ```
//! d3dcommon::variable_type_enum! {
//!     /// A constant table's types: the shared ones and `D3DXPT_UNSUPPORTED`.
//!     pub enum ParamType {
//!         /// `D3DXPT_UNSUPPORTED`.
//!         Unsupported = 19,
//!     }
//! }
//! // A `CTAB` type word of 3 is `float`, as in an `RDEF`.
//! let t = ParamType::from_u16(3);
//! assert_eq!(t, ParamType::Float);
//! assert_eq!(t.common_hlsl_name(), Some("float"));
//! assert_eq!(d3dcommon::COMMON_TYPE_NAMES[3], "float");
//! // Past the values it knows, the word is kept.
//! assert_eq!(ParamType::from_u16(70), ParamType::Unknown(70));
//! assert_eq!(ParamType::Unknown(70).to_u16(), 70);
//! ```

#![warn(missing_docs)]

pub mod text;

/// Declares a `u16`-valued enumeration with a variant `Unknown(u16)` for values it has
/// no name for, `from_u16`/`to_u16` and the `From` conversions both ways: the building
/// block of [`variable_type_enum!`] and [`variable_class_enum!`], and of the other
/// enumerations such records hold (`d3dbc::ctab::RegisterSet`).
///
/// ```
/// d3dcommon::u16_enum! {
///     pub enum Set {
///         Bool = 0,
///         Sampler = 3,
///     }
/// }
/// assert_eq!(Set::from_u16(3), Set::Sampler);
/// assert_eq!(Set::from_u16(1), Set::Unknown(1));
/// assert_eq!(u16::from(Set::Unknown(1)), 1);
/// ```
#[macro_export]
macro_rules! u16_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $value:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )*
            /// A value the format does not define, kept as is.
            Unknown(u16),
        }

        impl $name {
            /// The value with number `v`.
            pub fn from_u16(v: u16) -> $name {
                match v {
                    $( $value => $name::$variant, )*
                    n => $name::Unknown(n),
                }
            }

            /// The number.
            pub fn to_u16(self) -> u16 {
                match self {
                    $( $name::$variant => $value, )*
                    $name::Unknown(n) => n,
                }
            }
        }

        impl From<u16> for $name {
            fn from(v: u16) -> $name {
                $name::from_u16(v)
            }
        }

        impl From<$name> for u16 {
            fn from(v: $name) -> u16 {
                v.to_u16()
            }
        }
    };
}

/// Declares a variable-type enumeration: the values `D3DXPARAMETER_TYPE` and
/// `D3D_SHADER_VARIABLE_TYPE` share (0 `Void` to 18 `VertexFragment`), then the
/// caller's own (from 19 on), then `Unknown(u16)`; with `from_u16`/`to_u16`, `From`
/// both ways, and `common_hlsl_name`, the HLSL spelling of a shared value.
///
/// ```
/// d3dcommon::variable_type_enum! {
///     /// A type with one value of its own.
///     pub enum Ty {
///         /// The first value past the shared ones.
///         Own = 19,
///     }
/// }
/// assert_eq!(Ty::from_u16(12), Ty::Sampler2D);
/// assert_eq!(Ty::Own.to_u16(), 19);
/// assert_eq!(Ty::from(400), Ty::Unknown(400));
/// assert_eq!(Ty::SamplerCube.common_hlsl_name(), Some("samplerCUBE"));
/// assert_eq!(Ty::Own.common_hlsl_name(), None);
/// ```
#[macro_export]
macro_rules! variable_type_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($own:tt)* }) => {
        $crate::u16_enum! {
            $(#[$meta])*
            $vis enum $name {
                /// `void` (`D3DXPT_VOID`, `D3D_SVT_VOID`).
                Void = 0,
                /// `bool`.
                Bool = 1,
                /// `int`.
                Int = 2,
                /// `float`.
                Float = 3,
                /// `string`.
                String = 4,
                /// `texture` (of no stated dimension).
                Texture = 5,
                /// `Texture1D`.
                Texture1D = 6,
                /// `Texture2D`.
                Texture2D = 7,
                /// `Texture3D`.
                Texture3D = 8,
                /// `TextureCube`.
                TextureCube = 9,
                /// `sampler` (of no stated dimension).
                Sampler = 10,
                /// `sampler1D`.
                Sampler1D = 11,
                /// `sampler2D`.
                Sampler2D = 12,
                /// `sampler3D`.
                Sampler3D = 13,
                /// `samplerCUBE`.
                SamplerCube = 14,
                /// A pixel shader (an effect's object).
                PixelShader = 15,
                /// A vertex shader (an effect's object).
                VertexShader = 16,
                /// A pixel-shader fragment.
                PixelFragment = 17,
                /// A vertex-shader fragment (`D3DXPT_VERTEXFRAGMENT`,
                /// `D3D_SVT_VERTEXFRAGMENT`: the last value the two share).
                VertexFragment = 18,
                $($own)*
            }
        }

        impl $name {
            /// The HLSL spelling of a value both enumerations have
            /// ([`COMMON_TYPE_NAMES`]($crate::COMMON_TYPE_NAMES)); `None` for this
            /// enumeration's own values and for `Unknown`.
            pub fn common_hlsl_name(self) -> Option<&'static str> {
                match self {
                    $name::Unknown(_) => None,
                    known => $crate::COMMON_TYPE_NAMES.get(usize::from(known.to_u16())).copied(),
                }
            }
        }
    };
}

/// The HLSL spelling of each value the two variable-type enumerations share, by value
/// (`COMMON_TYPE_NAMES[3]` is `float`), as fxc prints them.
pub const COMMON_TYPE_NAMES: [&str; 19] = [
    "void",
    "bool",
    "int",
    "float",
    "string",
    "texture",
    "Texture1D",
    "Texture2D",
    "Texture3D",
    "TextureCube",
    "sampler",
    "sampler1D",
    "sampler2D",
    "sampler3D",
    "samplerCUBE",
    "pixelshader",
    "vertexshader",
    "pixelfragment",
    "vertexfragment",
];

/// Declares a variable-class enumeration: the values `D3DXPARAMETER_CLASS` and
/// `D3D_SHADER_VARIABLE_CLASS` share (0 `Scalar` to 5 `Struct`), then the caller's own
/// (from 6 on), then `Unknown(u16)`; with `from_u16`/`to_u16` and `From` both ways.
///
/// ```
/// d3dcommon::variable_class_enum! {
///     pub enum Class {}
/// }
/// assert_eq!(Class::from_u16(2), Class::MatrixRows);
/// assert_eq!(Class::from_u16(6), Class::Unknown(6));
/// ```
#[macro_export]
macro_rules! variable_class_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($own:tt)* }) => {
        $crate::u16_enum! {
            $(#[$meta])*
            $vis enum $name {
                /// A scalar.
                Scalar = 0,
                /// A vector.
                Vector = 1,
                /// A row-major matrix (`row_major`).
                MatrixRows = 2,
                /// A column-major matrix (HLSL's default).
                MatrixColumns = 3,
                /// An object: a texture, sampler, shader or string.
                Object = 4,
                /// A structure (`D3DXPC_STRUCT`, `D3D_SVC_STRUCT`: the last value the
                /// two share).
                Struct = 5,
                $($own)*
            }
        }
    };
}

#[cfg(test)]
mod tests {
    variable_type_enum! {
        enum Both {}
    }

    variable_class_enum! {
        enum Class {}
    }

    #[test]
    fn shared_values_round_trip_and_have_distinct_names() {
        let mut names = Vec::new();
        for v in 0..=18u16 {
            let t = Both::from_u16(v);
            assert_ne!(t, Both::Unknown(v), "{v}");
            assert_eq!(t.to_u16(), v);
            assert_eq!(u16::from(t), v);
            names.push(t.common_hlsl_name().unwrap());
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 19);
        assert_eq!(Both::from_u16(19), Both::Unknown(19));
        assert_eq!(Both::Unknown(19).common_hlsl_name(), None);
        assert_eq!(Both::Unknown(3).common_hlsl_name(), None);
        for v in 0..=5u16 {
            assert_eq!(Class::from(v).to_u16(), v);
        }
        assert_eq!(Class::from_u16(6), Class::Unknown(6));
    }
}
