//! The Direct3D 9 device capabilities the `2_x` profiles depend on (`D3DCAPS9`'s
//! `VS20Caps` / `PS20Caps` and the constant and slot counts), with the values of the
//! most capable device as defaults, and the values the Direct3D 11 feature levels 9_x
//! promise for their Level 9 programs.

use crate::target::FeatureLevel;
use serde::Serialize;

/// The device capabilities a Direct3D 9 program is validated against. They matter to
/// `vs_2_x` and `ps_2_x` (and the constant count and instruction slots of `vs_3_0` /
/// `ps_3_0`); the other profiles fix their own limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Caps9 {
    /// `DynamicFlowControlDepth`: the dynamic nesting limit, 0 or 24 (`vs_2_x`: "0 or 24";
    /// `ps_2_x`: 0 to 24). 0: no dynamic flow control (`if_comp`, `break`, `break_comp`
    /// and the predicated flow instructions are refused).
    pub dynamic_flow_depth: u8,
    /// `StaticFlowControlDepth`: the loop/rep nesting limit and, independently, the
    /// call nesting limit (`vs_2_x`: 1 to 4; `ps_2_x`: 0 to 4, 0 also meaning no
    /// static nesting).
    pub static_flow_depth: u8,
    /// `NumTemps`: temporary registers, 12 to 32.
    pub temps: u8,
    /// `D3DVS20CAPS_PREDICATION` / `D3DPS20CAPS_PREDICATION`: `setp_comp`, the
    /// predicate register and predicated instructions.
    pub predication: bool,
    /// `D3DPS20CAPS_ARBITRARYSWIZZLE` (ps_2_x).
    pub arbitrary_swizzle: bool,
    /// `D3DPS20CAPS_GRADIENTINSTRUCTIONS` (ps_2_x: `dsx`, `dsy`, `texldd`).
    pub gradient_instructions: bool,
    /// `D3DPS20CAPS_NOTEXINSTRUCTIONLIMIT` (ps_2_x: no separate limit on texture
    /// instructions).
    pub no_tex_instruction_limit: bool,
    /// ps_2_x `D3DPS20CAPS_NODEPENDENTREADLIMIT`: no limit on the order of dependent
    /// texture reads (without it, and always in ps_2_0, at most third order).
    pub no_dependent_read_limit: bool,
    /// `MaxPixelShaderInstructionSlots` of ps_2_x (96 to 512).
    pub ps_2_x_slots: u16,
    /// `MaxVertexShader30InstructionSlots` / `MaxPixelShader30InstructionSlots` (512 to
    /// 32768).
    pub slots_3_0: u16,
    /// `MaxVertexShaderConst`: float constants of the hardware vertex profiles (at
    /// least 96 for vs_1_1, 256 for vs_2_0 and later). D3DAssemble's validator does
    /// not check it (it accepts c8191, the last encodable constant, in every vertex
    /// profile: recorded verdicts); the device does, when the shader is created.
    pub vs_constants: u16,
}

impl Default for Caps9 {
    /// The most capable device: dynamic depth 24, static depth 4, 32 temporaries,
    /// predication, every ps_2_x feature, 512 ps_2_x slots, 32768 slots for 3_0, 8192
    /// vertex-shader constants (every encodable c#, as D3DAssemble's validator allows).
    fn default() -> Caps9 {
        Caps9 {
            dynamic_flow_depth: 24,
            static_flow_depth: 4,
            temps: 32,
            predication: true,
            arbitrary_swizzle: true,
            gradient_instructions: true,
            no_tex_instruction_limit: true,
            no_dependent_read_limit: true,
            ps_2_x_slots: 512,
            slots_3_0: 32768,
            vs_constants: 8192,
        }
    }
}

/// A `--caps` key and its range.
struct Key {
    name: &'static str,
    min: u32,
    max: u32,
    help: &'static str,
}

const KEYS: &[Key] = &[
    Key { name: "dynamic-flow-depth", min: 0, max: 24, help: "DynamicFlowControlDepth (dynamic nesting limit)" },
    Key {
        name: "static-flow-depth",
        min: 0,
        max: 4,
        help: "StaticFlowControlDepth (loop/rep and call nesting limits; vs_2_x needs 1..4)",
    },
    Key { name: "temps", min: 12, max: 32, help: "NumTemps (temporary registers)" },
    Key { name: "predication", min: 0, max: 1, help: "predication supported (0/1)" },
    Key { name: "arbitrary-swizzle", min: 0, max: 1, help: "ps_2_x arbitrary swizzles (0/1)" },
    Key { name: "gradients", min: 0, max: 1, help: "ps_2_x gradient instructions dsx/dsy/texldd (0/1)" },
    Key { name: "no-tex-limit", min: 0, max: 1, help: "ps_2_x without a texture instruction limit (0/1)" },
    Key {
        name: "no-dependent-read-limit",
        min: 0,
        max: 1,
        help: "ps_2_x without the third-order dependent texture read limit (0/1)",
    },
    Key { name: "ps-slots", min: 96, max: 512, help: "MaxPixelShaderInstructionSlots of ps_2_x" },
    Key { name: "slots-3-0", min: 512, max: 32768, help: "Max*Shader30InstructionSlots" },
    Key { name: "vs-constants", min: 96, max: 8192, help: "MaxVertexShaderConst" },
];

impl Caps9 {
    /// What a Direct3D 11 device of feature level `level` promises the Level 9
    /// programs of `*_4_0_level_9_x` shaders (Microsoft, "Specifying compiler
    /// targets"): 9_1 and 9_2 run vs_2_0/ps_2_0 programs ("static flow control (max
    /// depth of 1)", 12 temporaries, 64 arithmetic + 32 texture instructions); 9_3 runs
    /// vs_2_x programs like vs_2_a (32 temporaries, static flow control depth 4,
    /// predication; vs_2_a's dynamic depth 24) and ps_2_x programs (512 instructions,
    /// 32 temporaries, static depth 4, dynamic depth 24, arbitrary swizzle, gradients,
    /// predication, no dependent-read or texture-instruction limit).
    pub fn for_level(level: FeatureLevel) -> Caps9 {
        if level >= FeatureLevel::L9_3 {
            Caps9::default()
        } else {
            Caps9 {
                dynamic_flow_depth: 0,
                static_flow_depth: 1,
                temps: 12,
                predication: false,
                arbitrary_swizzle: false,
                gradient_instructions: false,
                no_tex_instruction_limit: false,
                no_dependent_read_limit: false,
                ps_2_x_slots: 96,
                slots_3_0: 512,
                vs_constants: 256,
            }
        }
    }

    /// Parses `key=value,key=value` (the keys of [`Caps9::keys`]) over `self`.
    pub fn parse_over(mut self, text: &str) -> Result<Caps9, String> {
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("`{item}`: expected key=value (keys: {})", Self::key_names()))?;
            let name = name.trim();
            let key = KEYS
                .iter()
                .find(|k| k.name == name)
                .ok_or_else(|| format!("unknown cap `{name}` (keys: {})", Self::key_names()))?;
            let value = value.trim();
            let n: u32 = match value {
                "true" | "yes" | "on" if key.max == 1 => 1,
                "false" | "no" | "off" if key.max == 1 => 0,
                v => v.parse().map_err(|_| format!("{name}={value}: expected a number"))?,
            };
            if n < key.min || n > key.max {
                return Err(format!("{name}={n}: out of range {}..={}", key.min, key.max));
            }
            match name {
                "dynamic-flow-depth" => self.dynamic_flow_depth = n as u8,
                "static-flow-depth" => self.static_flow_depth = n as u8,
                "temps" => self.temps = n as u8,
                "predication" => self.predication = n == 1,
                "arbitrary-swizzle" => self.arbitrary_swizzle = n == 1,
                "gradients" => self.gradient_instructions = n == 1,
                "no-tex-limit" => self.no_tex_instruction_limit = n == 1,
                "no-dependent-read-limit" => self.no_dependent_read_limit = n == 1,
                "ps-slots" => self.ps_2_x_slots = n as u16,
                "slots-3-0" => self.slots_3_0 = n as u16,
                "vs-constants" => self.vs_constants = n as u16,
                _ => {}
            }
        }
        Ok(self)
    }

    /// The keys `parse_over` reads, with their ranges and meanings, one per line.
    pub fn keys() -> String {
        KEYS.iter().map(|k| format!("{}={}..{}: {}\n", k.name, k.min, k.max, k.help)).collect()
    }

    fn key_names() -> String {
        KEYS.iter().map(|k| k.name).collect::<Vec<_>>().join(", ")
    }
}
