//! Arbitrary bytes never panic any reader.

use proptest::prelude::*;

proptest! {
    #[test]
    fn shader_readers_take_any_bytes(mut bytes in proptest::collection::vec(any::<u8>(), 0..512), effect in any::<bool>()) {
        if effect && bytes.len() >= 4 {
            bytes[2] = 0xff;
            bytes[3] = 0xfe;
        }
        let _ = inputs::family(&bytes);
        let _ = inputs::is_effect(&bytes);
        let _ = inputs::d3dbc_end(&bytes);
        for e in inputs::embedded_shaders(&bytes) {
            prop_assert!(e.range.start < e.range.end && e.range.end <= bytes.len());
        }
        let _ = inputs::single_shader(&bytes);
    }
}

proptest! {
    #[test]
    fn stream_output_readers_take_any_text(decl in ".{0,64}", strides in proptest::option::of(".{0,16}"), rasterized in proptest::option::of(".{0,8}"), json in ".{0,128}") {
        let _ = inputs::so::declaration(&decl, strides.as_deref(), rasterized.as_deref());
        let _ = inputs::so::arguments_json(&json, validate::Target::d3d12().api);
        let _ = inputs::so::arguments_json(&decl, validate::Target::d3d12().api);
    }
}

proptest! {
    #[test]
    fn vertex_reader_takes_any_text(text in "(?s).{0,256}", csv in "([A-Z0-9_.,\n ]|x|w|NaN|inf|-|1|\\[|\\]|\\{|\\}|\"|:){0,128}") {
        let _ = inputs::vertices::read(&text);
        let _ = inputs::vertices::read(&csv);
    }
}
