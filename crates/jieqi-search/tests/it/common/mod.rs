//! Helpers the search tests share: an engine from its spec text, a node limit.

// Each test binary compiles this module and uses some of the helpers.
#![allow(dead_code)]

use jieqi_engine::{Engine, Limits, Spec};

/// The jieqi-search engine `text` names (panics on a bad spec).
pub fn engine(text: &str) -> Box<dyn Engine> {
    jieqi_search::from_spec(&Spec::parse(text).unwrap())
        .expect("a jieqi-search engine")
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A limit of `n` nodes and nothing else.
pub fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}
