//! `Identity::from_json` (an identity file read at run time) and `Config::from_source`
//! (`prompts/promptic.json`, whose `identity` is flattened the same way), on the same text.

use prompt_runtime::{Config, Identity, SourceFile, variant_name};

/// One input: the bytes as an identity file and as a configuration file.
pub fn run(data: &[u8]) {
    let Ok(json) = std::str::from_utf8(data) else {
        return;
    };
    match Identity::from_json(json) {
        Ok(identity) => check_identity(&identity),
        Err(error) => {
            let _ = error.to_string();
        }
    }
    let source = SourceFile::new("prompts/promptic.json", json);
    match Config::from_source(&source) {
        Ok(config) => check_identity(&config.identity),
        Err(diagnostics) => {
            // Rendering a diagnostic slices the source at its spans.
            let _ = diagnostics.to_string();
        }
    }
}

/// What every identity promises, whatever the JSON was.
fn check_identity(identity: &Identity) {
    let all: Vec<(&str, &str)> = identity.iter().collect();
    assert_eq!(all.len(), identity.len(), "iter() yields len() names");
    for &(name, value) in &all {
        assert_eq!(
            identity.get(name),
            Some(value),
            "get({name:?}) finds iter()'s value"
        );
    }
    let names: Vec<&str> = all.iter().map(|&(name, _)| name).collect();
    assert!(
        identity.check_keys(&names).is_ok(),
        "its own names are all there"
    );
    for key in identity.keys() {
        assert!(
            identity.get(&variant_name(key)).is_some(),
            "the variant of {key:?} is there"
        );
    }
    // The same keys and values, built again, give the same identity.
    let again = Identity::from_pairs(identity.keys().map(|k| (k, identity.get(k).unwrap_or(""))));
    assert!(again == *identity, "from_pairs(keys) rebuilds the identity");
}
