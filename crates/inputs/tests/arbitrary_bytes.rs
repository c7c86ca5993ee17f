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
