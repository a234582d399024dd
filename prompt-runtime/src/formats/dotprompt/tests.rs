//! Conformance tests in promptkit's own words.
