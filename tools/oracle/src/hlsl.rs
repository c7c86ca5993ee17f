//! Placeholder until the generator lands: one trivial program per profile.
pub struct Shader { pub name: String, pub source: String, pub entry: String, pub profile: &'static str }
pub const PROFILES: &[&str] = &["vs_5_0"];
pub fn generate(profile: &str, seed: u64, count: usize) -> Vec<Shader> {
    (0..count).map(|i| Shader { name: format!("{profile}-s{seed}-{i:05}"), source: format!("float4 main(float4 p:POSITION):SV_Position {{ return p * {}.5; }}", i), entry: "main".into(), profile: "vs_5_0" }).collect()
}
