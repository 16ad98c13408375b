//! A process hookrun talks with while it runs (an `mcp_tool` hook's
//! server), rather than one it feeds and reads to the end.
//!
//! Started like a hook (its own process group, resolved on its own PATH,
//! a complete environment, fresh non-blocking pipes, nothing inherited),
//! and stopped like one: SIGTERM to the group, SIGKILL after the grace (or
//! at the hard end), never waiting on a pipe. The caller owns the pipes
//! and the conversation.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Job, JobEnv, Program};
use crate::event::Bytes;
use crate::platform::{Pipe, Tree, TreeScan, TreeState};

/// A running process group and the parent's ends of its pipes (each taken
/// by the caller; dropping one closes it).
#[derive(Debug)]
pub struct Interactive {
    tree: Tree,
    pub stdin: Option<Pipe>,
    pub stdout: Option<Pipe>,
    pub stderr: Option<Pipe>,
}

/// How [`Interactive::stop`] ended the group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// Gone after SIGTERM (or already gone).
    Terminated,
    /// Still alive after the grace: SIGKILL.
    Killed,
}

impl Interactive {
    /// Starts `program` with exactly `env` in `cwd`; the error says why it
    /// could not start (what a command hook's `SpawnFailed` says).
    pub fn start(
        program: Program,
        env: JobEnv,
        cwd: PathBuf,
    ) -> Result<Interactive, super::spawn::SpawnError> {
        let job = Job {
            program,
            env,
            cwd,
            stdin: Arc::new(Bytes::from(Vec::new())),
            timeout: Duration::ZERO,
            kill_by: None,
        };
        let spawned = super::spawn::spawn_job(&job)?;
        Ok(Interactive {
            tree: spawned.tree,
            stdin: Some(spawned.stdin),
            stdout: Some(spawned.stdout),
            stderr: Some(spawned.stderr),
        })
    }

    /// Ends the group: SIGTERM, then SIGKILL once `grace` has passed or at
    /// `kill_by`, whichever comes first. Waits only on the group, polling
    /// (a zombie-only group counts as gone), never on a pipe.
    pub fn stop(mut self, grace: Duration, kill_by: Option<Instant>) -> Stopped {
        // Closing our ends first: a server that reads to EOF may leave by itself.
        self.stdin = None;
        let _ = self.tree.terminate();
        let now = Instant::now();
        let until = kill_by.map_or(now + grace, |end| end.min(now + grace));
        let mut stopped = Stopped::Terminated;
        loop {
            if self.tree.state(&mut TreeScan::default()) == TreeState::Gone {
                break;
            }
            if Instant::now() >= until {
                let _ = self.tree.kill();
                stopped = Stopped::Killed;
                // A member forked between two looks escapes one SIGKILL:
                // kill again until the group is empty (bounded).
                let settle = Instant::now() + super::unit::KILL_SETTLE;
                while self.tree.state(&mut TreeScan::default()) != TreeState::Gone
                    && Instant::now() < settle
                {
                    std::thread::sleep(super::unit::KILL_RECHECK);
                    let _ = self.tree.kill();
                }
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        if self.tree.leader_exited() {
            let _ = self.tree.reap();
        }
        stopped
    }
}
