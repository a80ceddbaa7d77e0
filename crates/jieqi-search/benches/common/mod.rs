pub mod positions;

/// The bench's arguments (cargo's `--bench` left out) and the engine spec among them: the first
/// one starting with `alphabeta`, or plain `alphabeta`.
pub fn args_and_spec() -> (Vec<String>, jieqi_engine::Spec) {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let spec = args
        .iter()
        .find(|a| a.starts_with("alphabeta"))
        .map_or("alphabeta", String::as_str);
    let spec = jieqi_engine::Spec::parse(spec).expect("spec");
    (args, spec)
}
