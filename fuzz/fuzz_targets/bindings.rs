//! The text form of `translate`'s bindings (`translate::Bindings::parse`, what
//! `dxref translate --bindings FILE` reads) on arbitrary UTF-8: bindings or an error
//! with a line and a column inside the text, never a panic; what parses is placed where
//! it says, and a typed buffer format (`t3 = R8G8B8A8_UNORM`) is given to a view only.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match translate::Bindings::parse(text) {
        Ok(b) => {
            for (&(class, register), &slot) in &b.overrides {
                assert_eq!(b.slot(class, register), slot);
            }
            // Shader Model 5.1 register spaces (`t5 space1 = 2:7`): never space 0.
            for (&(class, space, register), &slot) in &b.space_overrides {
                assert_ne!(space, 0);
                assert_eq!(b.slot_in(class, space, register), slot);
            }
            for (&(class, space, register), &format) in &b.space_formats {
                assert!(matches!(class, translate::Class::Srv | translate::Class::Uav), "{class:?}");
                assert_ne!(space, 0);
                assert_eq!(b.format_in(class, space, register), Some(format));
            }
            // Typed buffer formats: only for views, and read back by name.
            for (&(class, register), &format) in &b.formats {
                assert!(matches!(class, translate::Class::Srv | translate::Class::Uav), "{class:?}");
                assert_eq!(b.format(class, register), Some(format));
                assert_eq!(translate::Format::from_name(format.name()), Some(format));
            }
        }
        Err(e) => {
            let lines = text.lines().count().max(1);
            assert!(e.line >= 1 && e.line <= lines, "line {} of {lines}: {e}", e.line);
            let line = text.lines().nth(e.line - 1).unwrap_or("");
            assert!(e.column >= 1 && e.column <= line.chars().count() + 1, "column {}: {e}", e.column);
            let _ = e.to_string();
        }
    }
});
