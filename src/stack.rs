//! The stack deep JSON is handled on.
//!
//! hookrun reads JSON nested up to [`crate::event::MAX_JSON_DEPTH`] levels
//! (an event, a hook's answer), and serialising, comparing or dropping a
//! `serde_json::Value` that deep recurses past any thread's usual stack.
//! [`on_big_stack`] runs work on a stack sized for it; [`may_nest_deep`]
//! says, without parsing, whether some JSON text could need it.

/// Its size: room for JSON nested
/// [`crate::event::MAX_JSON_DEPTH`] deep through parsing, matching,
/// serialising and dropping (only the pages used are ever touched).
pub const BIG_STACK: usize = 512 * 1024 * 1024;

/// How deep JSON may nest and still be handled on the stack a command
/// starts on. Serialising, comparing and dropping a `serde_json::Value`
/// recurse once or twice per level, some hundreds of bytes each: 256
/// levels fit in a few hundred KiB, far inside even a small stack limit.
pub const NORMAL_STACK_NESTING: usize = 256;

/// Whether JSON text may nest deeper than [`NORMAL_STACK_NESTING`]: an
/// upper bound without parsing, since every level opens with `{` or `[`
/// (strings may hold more of them; that only errs on the safe side).
/// Stops counting as soon as the bound is passed.
pub fn may_nest_deep(bytes: &[u8]) -> bool {
    let mut opened = 0;
    for chunk in bytes.chunks(4096) {
        opened += chunk.iter().filter(|&&b| b == b'{' || b == b'[').count();
        if opened > NORMAL_STACK_NESTING {
            return true;
        }
    }
    false
}

thread_local! {
    /// This thread is running on a [`BIG_STACK`] now.
    static ON_BIG_STACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

thread_local! {
    /// A switch on this thread fell back to the current stack since the
    /// last [`take_fallback_warning`].
    static FELL_BACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// What to tell the person at the host when deep JSON could not get its
/// stack (once, then cleared): `fire` adds it to its answer's warnings, so
/// the fallback is never only a log line.
pub fn take_fallback_warning() -> Option<String> {
    FELL_BACK.replace(false).then(|| {
        format!(
            "hookrun could not map a {} MiB stack for deeply nested JSON (a memory limit?) and handled it on its normal stack, which overflows on JSON nested many thousands of levels deep",
            BIG_STACK >> 20
        )
    })
}

/// Marks this thread as on a big stack until dropped (a panic included).
struct BigStackMark;

impl BigStackMark {
    fn set() -> BigStackMark {
        ON_BIG_STACK.set(true);
        BigStackMark
    }
}

impl Drop for BigStackMark {
    fn drop(&mut self) {
        ON_BIG_STACK.set(false);
    }
}

/// [`on_big_stack`] when `needed`, else `work` right here.
pub fn on_big_stack_if<T>(needed: bool, work: impl FnOnce() -> T) -> T {
    if needed { on_big_stack(work) } else { work() }
}

/// Runs `work` on a [`BIG_STACK`] stack: on this thread, switched to a
/// stack mapped for it and unmapped after (only the pages used are ever
/// touched). Starting a thread for it instead cost about a tenth of a
/// fire that matches no hook (a new malloc arena, its first pages, the
/// thread's start and exit). Already on one (a nested call), `work` runs
/// where it is.
///
/// Switching costs about 50 µs (stacker reads `/proc/self/maps` to find the
/// current stack, then maps and unmaps the new one), so `fire` switches
/// only for JSON that [`may_nest_deep`]: a deep event, a deep hook output.
///
/// Where the stack cannot be mapped (a memory limit), `work` runs on the
/// current stack, which holds JSON nested several thousand levels deep,
/// and [`take_fallback_warning`] has a warning for the answer.
pub fn on_big_stack<T>(work: impl FnOnce() -> T) -> T {
    use std::panic::{self, AssertUnwindSafe};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Mutex, PoisonError};
    // stacker panics when it cannot map the stack, before `work` starts.
    // That message must not reach stderr (the block reason channel), so
    // the panic hook is silent from here until `work` starts; the lock
    // keeps two callers (tests) from interleaving the swap.
    static SWAP: Mutex<()> = Mutex::new(());
    if ON_BIG_STACK.get() {
        return work();
    }
    let swapping = SWAP.lock().unwrap_or_else(PoisonError::into_inner);
    let original = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let restore_slot = Mutex::new(Some((original, swapping)));
    let restore = || {
        let taken = restore_slot
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some((original, swapping)) = taken {
            panic::set_hook(original);
            drop(swapping);
        }
    };
    let started = AtomicBool::new(false);
    let mut work = Some(work);
    let ran = panic::catch_unwind(AssertUnwindSafe(|| {
        stacker::grow(BIG_STACK, || {
            started.store(true, Ordering::Relaxed);
            restore();
            let _marked = BigStackMark::set();
            (work.take().expect("the work runs once"))()
        })
    }));
    restore();
    match ran {
        Ok(value) => value,
        Err(panic) if started.load(Ordering::Relaxed) => panic::resume_unwind(panic),
        Err(_) => {
            tracing::warn!("no stack could be mapped for deep JSON; running on the current one");
            FELL_BACK.set(true);
            (work.take().expect("the work runs once"))()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_is_bounded_by_the_brackets_that_open_it() {
        let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert!(!may_nest_deep(b""));
        assert!(!may_nest_deep(nested(NORMAL_STACK_NESTING).as_bytes()));
        assert!(may_nest_deep(nested(NORMAL_STACK_NESTING + 1).as_bytes()));
        // Shallow but with many brackets (in strings, or side by side):
        // judged deep, which only costs the switch.
        let wide = format!("[{}0]", "[],".repeat(NORMAL_STACK_NESTING));
        assert!(may_nest_deep(wide.as_bytes()));
        // Past a chunk boundary, and `{` counts as `[` does.
        let late = format!(
            "{}{}",
            " ".repeat(10_000),
            "{".repeat(NORMAL_STACK_NESTING + 1)
        );
        assert!(may_nest_deep(late.as_bytes()));
    }

    #[test]
    fn a_nested_switch_stays_on_the_big_stack_it_is_on() {
        let left = || stacker::remaining_stack().unwrap_or(0);
        assert!(!ON_BIG_STACK.get());
        let (outer, inner) = on_big_stack(|| {
            assert!(ON_BIG_STACK.get());
            (left(), on_big_stack(left))
        });
        assert!(!ON_BIG_STACK.get(), "the mark is cleared after");
        assert!(
            outer > BIG_STACK / 2,
            "on the big stack: {outer} bytes left"
        );
        // The same stack: only a few frames further down, not a fresh one.
        assert!(
            inner <= outer && outer - inner < 64 * 1024,
            "{outer} vs {inner}"
        );
        assert!(!on_big_stack_if(false, || ON_BIG_STACK.get()));
        assert!(on_big_stack_if(true, || ON_BIG_STACK.get()));
    }
}
