//! What every bootstrap over pair indices shares: the unbiased draw of an index, the interval's
//! quantile levels and the quantile rule (numpy's default, type 7, with infinite ends handled).

use rand_core::Rng;

/// The lower quantile level of the bootstrap interval (95 %: 2.5 % to 97.5 %).
pub const LOWER_Q: f64 = 0.025;
/// The upper quantile level.
pub const UPPER_Q: f64 = 0.975;

/// A uniform integer in `0..n` from `next_u64` (Lemire's multiply-shift with rejection: unbiased).
///
/// # Panics
/// When `n` is 0.
pub fn uniform_below<R: Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    assert!(n > 0, "uniform_below(0)");
    let threshold = n.wrapping_neg() % n;
    loop {
        let m = u128::from(rng.next_u64()) * u128::from(n);
        if (m as u64) >= threshold {
            return (m >> 64) as u64;
        }
    }
}

/// The q-quantile of sorted values by the rule documented on [`crate::stats::ratings::Ratings`]: NaN for no values, and
/// between an infinite and a finite neighbour the nearer one.
pub fn quantile_sorted(x: &[f64], q: f64) -> f64 {
    let Some(last) = x.len().checked_sub(1) else {
        return f64::NAN;
    };
    let h = last as f64 * q;
    let lo = (h.floor() as usize).min(last);
    let hi = (lo + 1).min(last);
    let frac = h - lo as f64;
    let (a, b) = (x[lo], x[hi]);
    if a == b {
        a
    } else if a.is_infinite() || b.is_infinite() {
        if frac < 0.5 { a } else { b }
    } else {
        a + frac * (b - a)
    }
}

/// The seed of the bootstrap stream, from the master seed: reproducible, and apart from every
/// deal seed.
pub fn bootstrap_seed(seed: u64) -> u64 {
    jieqi_engine::mix(seed, 0xB007_57A9_0000_0001)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    #[test]
    fn quantile_rule() {
        let x = [1.0, 2.0, 3.0, 4.0];
        assert!((quantile_sorted(&x, 0.025) - 1.075).abs() < 1e-12);
        assert!((quantile_sorted(&x, 0.975) - 3.925).abs() < 1e-12);
        assert_eq!(quantile_sorted(&[5.0], 0.025), 5.0);
        assert!(quantile_sorted(&[], 0.5).is_nan());
        let inf = [f64::NEG_INFINITY, 1.0, 2.0, f64::INFINITY];
        assert_eq!(quantile_sorted(&inf, 0.025), f64::NEG_INFINITY);
        assert_eq!(quantile_sorted(&inf, 0.3), 1.0); // h = 0.9: nearest is x_1
        assert_eq!(quantile_sorted(&inf, 0.975), f64::INFINITY);
    }

    #[test]
    fn uniform_below_is_in_range_and_covers() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[uniform_below(&mut rng, 7) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| (850..1150).contains(&c)), "{seen:?}");
        assert_eq!(uniform_below(&mut rng, 1), 0);
    }
}
