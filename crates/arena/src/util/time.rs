//! UTC time for folder names and reports, without a date crate.

/// Seconds since the Unix epoch as `YYYYMMDD-HHMMSS` (UTC), for default result folder names.
pub fn utc_timestamp(secs: u64) -> String {
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    let rem = secs % 86_400;
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The proleptic Gregorian date (year, month, day) of a day count since 1970-01-01 (Howard
/// Hinnant's civil-from-days).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Whether `s` is a real calendar date written `YYYY-MM-DD` (2026-02-29 and 2026-13-45 are
/// not; 2028-02-29 is).
pub fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let digits = |r: std::ops::Range<usize>| {
        b[r.clone()]
            .iter()
            .all(u8::is_ascii_digit)
            .then(|| s[r].parse::<u32>().ok())
            .flatten()
    };
    let (Some(y), Some(m), Some(d)) = (digits(0..4), digits(5..7), digits(8..10)) else {
        return false;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

#[cfg(test)]
mod tests {
    use super::is_date;

    #[test]
    fn only_real_dates_are_dates() {
        for good in [
            "2026-11-30",
            "2026-12-01",
            "2028-02-29",
            "2000-02-29",
            "1999-12-31",
        ] {
            assert!(is_date(good), "{good}");
        }
        for bad in [
            "2026-13-45",
            "2026-02-29",
            "1900-02-29",
            "2026-04-31",
            "2026-00-10",
            "2026-01-00",
            "try",
            "quick-try",
            "2026-1-01",
            "2026-11-30x",
            "+026-11-30",
            "２026-11-30",
        ] {
            assert!(!is_date(bad), "{bad}");
        }
    }
}
