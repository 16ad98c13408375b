//! Capped capture of one output stream (SPEC §5.5).
//!
//! Keeps the first `cap` bytes and counts the rest, so a hook that floods
//! its output costs constant memory and is never blocked on a full pipe.
//! It must never allocate more than `cap` bytes.

use super::Captured;

#[derive(Debug)]
pub(crate) struct Capture {
    kept: Vec<u8>,
    total: u64,
    cap: usize,
}

impl Capture {
    pub(crate) fn new(cap: usize) -> Capture {
        Capture {
            kept: Vec::new(),
            total: 0,
            cap,
        }
    }

    pub(crate) fn push(&mut self, chunk: &[u8]) {
        self.total += chunk.len() as u64;
        let take = chunk.len().min(self.cap - self.kept.len());
        if take == 0 {
            return;
        }
        let needed = self.kept.len() + take;
        if needed > self.kept.capacity() {
            // Grow geometrically but never past the cap: plain `extend`
            // could reserve up to twice the cap.
            let target = needed.max(self.kept.capacity() * 2).min(self.cap);
            self.kept.reserve_exact(target - self.kept.len());
        }
        self.kept.extend_from_slice(&chunk[..take]);
    }

    pub(crate) fn finish(self) -> Captured {
        Captured {
            bytes: self.kept,
            total: self.total,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_start_counts_everything_and_never_allocates_past_the_cap() {
        let mut capture = Capture::new(10);
        capture.push(b"0123");
        capture.push(b"456789abc");
        capture.push(b"def");
        assert!(capture.kept.capacity() <= 10);
        let captured = capture.finish();
        assert_eq!(captured.bytes, b"0123456789");
        assert_eq!(captured.total, 16);
        assert!(captured.truncated());
    }

    #[test]
    fn a_zero_cap_keeps_nothing() {
        let mut capture = Capture::new(0);
        capture.push(b"abc");
        let captured = capture.finish();
        assert!(captured.bytes.is_empty(), "{:?}", captured.bytes);
        assert_eq!(captured.total, 3);
    }

    #[test]
    fn under_the_cap_is_not_truncated() {
        let mut capture = Capture::new(1024);
        capture.push(b"hello");
        let captured = capture.finish();
        assert_eq!(captured.bytes, b"hello");
        assert!(!captured.truncated());
    }
}
