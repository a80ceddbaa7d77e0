use jieqi_core::{Position, Rules, perft::perft};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules = Rules::preset(&args[1]).unwrap();
    let mut pos = if args.len() > 3 {
        Position::from_fen(&args[3], &rules).unwrap()
    } else {
        Position::start(&rules)
    };
    for d in 1..=args[2].parse().unwrap() {
        let t = std::time::Instant::now();
        let n = perft(&mut pos, d);
        let s = t.elapsed().as_secs_f64();
        println!("{d} {n} {:.3}s {:.1} Mnps", s, n as f64 / s / 1e6);
    }
}
