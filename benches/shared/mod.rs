//! What the Rust benches share: their clock.

/// Seconds this thread has run on a CPU (the machine may be shared: wall time would count others).
pub fn cpu_seconds() -> f64 {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    text.split_whitespace()
        .next()
        .and_then(|ns| ns.parse::<f64>().ok())
        .unwrap_or(f64::NAN)
        / 1e9
}
