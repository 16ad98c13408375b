//! Opening the files a fire reads and writes, so that nothing the agent can
//! plant at their paths hangs hookrun or turns a write aside.
//!
//! Every settings file, the trust store, the audit log and the state files
//! are opened here. The rules: open with `O_NONBLOCK` (a FIFO or a device
//! then cannot stall the `open` itself), check with `fstat` that what was
//! opened is a regular file, clear `O_NONBLOCK` again; never follow a
//! symlink where hookrun writes its own files (`O_NOFOLLOW`); create them
//! `0600`; take locks with a bound (the fire's deadline). The only files
//! that may be something else are descriptors the user named on the
//! command line (`--settings /dev/fd/N`, `<(…)`), read with the deadline as
//! the bound. This module never decides what a failure means: callers turn
//! the `io::Error` (whose text names what was found) into a warning.

use std::fs::{File, OpenOptions};
use std::io::{self, Read as _};
use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::platform::{self, FileLock};

static DEADLINE: OnceLock<Instant> = OnceLock::new();

/// For a process that answers one event (`fire`): reads of pipes and waits
/// for locks end at `deadline`. Without one, locks wait at most
/// [`UNBOUNDED_LOCK_WAIT`] and a named pipe is read until its writer closes.
pub fn set_deadline(deadline: Instant) {
    let _ = DEADLINE.set(deadline);
}

/// How long a lock is waited for outside a fire.
const UNBOUNDED_LOCK_WAIT: Duration = Duration::from_secs(10);

/// Whether a symlink at the path's last component is followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Follow {
    /// A file the user points at (settings may be dotfile links).
    Yes,
    /// A file hookrun owns (state, log, trust store): a link there was
    /// planted, and writing through it would damage its target.
    No,
}

fn not_regular(file_type: std::fs::FileType) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{}, not a regular file",
            platform::describe_file_type(file_type)
        ),
    )
}

/// `ENXIO` and `ELOOP` (from `O_NOFOLLOW`) say little; `ELOOP` says "too many levels of symbolic links":
/// say what it means here.
fn explain_open_error(err: io::Error, follow: Follow) -> io::Error {
    // A non-blocking write open of a FIFO nobody reads.
    if platform::is_fifo_without_reader(&err) {
        return io::Error::new(
            io::ErrorKind::InvalidInput,
            "a FIFO or device, not a regular file",
        );
    }
    if follow == Follow::No && platform::is_refused_link(&err) {
        return io::Error::new(
            io::ErrorKind::InvalidInput,
            "a symbolic link, which hookrun does not follow for its own files",
        );
    }
    err
}

/// Read options with the open flags of the rules above (non-blocking,
/// close-on-exec, no-follow unless `follow`).
fn reading(follow: Follow) -> OpenOptions {
    let mut options = OpenOptions::new();
    options.read(true);
    platform::set_open_flags(&mut options, follow == Follow::Yes);
    options
}

/// Checks that `file` is a regular file (one `fstat`) and makes it
/// blocking again.
fn regular(file: File) -> io::Result<(File, std::fs::Metadata)> {
    let (file, meta) = regular_nonblocking(file)?;
    platform::clear_nonblocking(&file)?;
    Ok((file, meta))
}

/// Checks that `file` is a regular file, leaving `O_NONBLOCK` set: for a
/// file read whole at once, where it changes nothing (reads of a regular
/// file never wait for a writer), and two `fcntl`s per file on every fire
/// are saved.
fn regular_nonblocking(file: File) -> io::Result<(File, std::fs::Metadata)> {
    let meta = file.metadata()?;
    if !meta.file_type().is_file() {
        return Err(not_regular(meta.file_type()));
    }
    Ok((file, meta))
}

/// Reads the rest of `file`, whose size is `len`: without std's own size
/// probe (`File::read_to_end` asks `fstat` and `lseek` again).
fn read_all(file: &mut File, len: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    io::Read::take(file, u64::MAX).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Opens a regular file for reading.
pub fn open_read(path: &Path, follow: Follow) -> io::Result<File> {
    let file = reading(follow)
        .open(path)
        .map_err(|err| explain_open_error(err, follow))?;
    regular(file).map(|(file, _)| file)
}

/// Reads a whole regular file.
pub fn read(path: &Path, follow: Follow) -> io::Result<Vec<u8>> {
    let file = reading(follow)
        .open(path)
        .map_err(|err| explain_open_error(err, follow))?;
    let (mut file, meta) = regular_nonblocking(file)?;
    read_all(&mut file, meta.len())
}

/// A path that names one of this process's descriptors (`/dev/fd/7`,
/// `/proc/self/fd/63`): only the user's command line can name one.
fn names_a_descriptor(path: &Path) -> bool {
    let text = path.as_os_str().as_encoded_bytes();
    [&b"/dev/fd/"[..], b"/proc/self/fd/"].iter().any(|prefix| {
        text.strip_prefix(*prefix)
            .is_some_and(|n| !n.is_empty() && n.iter().all(u8::is_ascii_digit))
    })
}

/// The largest settings file (or trust store) read: far beyond any real
/// one (10,000 hooks are about 1 MiB), and small enough that a sparse
/// file of many gigabytes planted in its place costs no time or memory.
pub const MAX_SETTINGS_BYTES: u64 = 64 * 1024 * 1024;

fn too_large(len: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{len} bytes, over the {} MiB hookrun reads from a settings file",
            MAX_SETTINGS_BYTES / (1024 * 1024)
        ),
    )
}

/// Reads a regular file of at most [`MAX_SETTINGS_BYTES`].
pub fn read_capped(path: &Path, follow: Follow) -> io::Result<Vec<u8>> {
    let file = reading(follow)
        .open(path)
        .map_err(|err| explain_open_error(err, follow))?;
    let (mut file, meta) = regular_nonblocking(file)?;
    if meta.len() > MAX_SETTINGS_BYTES {
        return Err(too_large(meta.len()));
    }
    read_all_capped(&mut file, meta.len())
}

/// [`read_all`], failing past [`MAX_SETTINGS_BYTES`] (a file that grows
/// while it is read).
fn read_all_capped(file: &mut File, len: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    io::Read::take(file, MAX_SETTINGS_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_SETTINGS_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Reads a settings file the user named: a regular file, or a pipe behind
/// `/dev/fd/N` (`--settings <(…)`), read until its writer closes or the
/// deadline passes; at most [`MAX_SETTINGS_BYTES`] either way.
pub fn read_settings(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = reading(Follow::Yes).open(path)?;
    let meta = file.metadata()?;
    if meta.file_type().is_file() {
        if meta.len() > MAX_SETTINGS_BYTES {
            return Err(too_large(meta.len()));
        }
        return read_all_capped(&mut file, meta.len());
    }
    if !(platform::is_fifo(meta.file_type()) && names_a_descriptor(path)) {
        return Err(not_regular(meta.file_type()));
    }
    // macOS opens `/dev/fd/N` as a duplicate of descriptor N, with N's
    // flags rather than the ones asked for: made non-blocking here, so the
    // deadline bounds the read there too.
    platform::set_nonblocking_file(&file)?;
    read_pipe_until(&mut file, DEADLINE.get().copied())
}

fn read_pipe_until(file: &mut File, deadline: Option<Instant>) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match file.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(n) => {
                bytes.extend_from_slice(&chunk[..n]);
                if bytes.len() as u64 > MAX_SETTINGS_BYTES {
                    return Err(too_large(bytes.len() as u64));
                }
            }
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) if err.kind() == io::ErrorKind::WouldBlock => {
                let wait = match deadline {
                    None => None,
                    Some(deadline) => {
                        let left = deadline.saturating_duration_since(Instant::now());
                        if left.is_zero() {
                            return Err(io::Error::new(
                                io::ErrorKind::TimedOut,
                                "a pipe whose writer did not finish before the deadline",
                            ));
                        }
                        Some(left.min(Duration::from_millis(u64::from(u16::MAX))))
                    }
                };
                platform::wait_readable(file, wait)?;
            }
            Err(err) => return Err(err),
        }
    }
}

/// How a private file is opened for writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Write {
    /// `O_APPEND`, created if missing (the audit log).
    Append,
    /// Read and write, created if missing, not truncated (a counter).
    Update,
    /// Created if missing, emptied (a stamp, a result).
    Truncate,
    /// Created, and it must not exist yet (`O_EXCL`: a claim).
    CreateNew,
}

/// Opens one of hookrun's own files for writing: never through a symlink,
/// created `0600` (readable by this user only: they may hold inputs), and
/// only if what is there is a regular file.
pub fn open_private(path: &Path, how: Write) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true);
    platform::set_private_mode(&mut options);
    platform::set_open_flags(&mut options, false);
    match how {
        Write::Append => options.append(true).create(true),
        Write::Update => options.read(true).create(true).truncate(false),
        // Emptied only once it is known to be a regular file (below).
        Write::Truncate => options.create(true).truncate(false),
        Write::CreateNew => options.create_new(true),
    };
    let file = options
        .open(path)
        .map_err(|err| explain_open_error(err, Follow::No))?;
    let (file, _) = regular(file)?;
    if how == Write::Truncate {
        file.set_len(0)?;
    }
    Ok(file)
}

/// Opens a file someone else named for appending (the host's
/// `CLAUDE_ENV_FILE`): links are followed, but only a regular file is
/// written, and one created here is `0600`.
pub fn open_append(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.append(true).create(true);
    platform::set_private_mode(&mut options);
    platform::set_open_flags(&mut options, true);
    let file = options
        .open(path)
        .map_err(|err| explain_open_error(err, Follow::Yes))?;
    regular(file).map(|(file, _)| file)
}

/// Writes `bytes` to a private file under a temporary name in the same
/// folder, then renames it into place: a reader never sees half, and a
/// symlink at `path` is replaced, never written through.
pub fn write_private_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write as _;
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let mut temp = tempfile::Builder::new()
        .prefix(".hookrun-")
        .tempfile_in(dir)?;
    temp.write_all(bytes)?;
    temp.persist(path).map_err(|err| err.error)?;
    Ok(())
}

/// An exclusive `flock`, waited for until the deadline (a process holding
/// the lock forever must not hang a fire).
pub fn lock_exclusive(file: File) -> io::Result<FileLock> {
    let until = DEADLINE
        .get()
        .copied()
        .unwrap_or_else(|| Instant::now() + UNBOUNDED_LOCK_WAIT);
    let mut file = file;
    let mut pause = Duration::from_millis(1);
    loop {
        match platform::try_lock(file) {
            Ok(locked) => return Ok(locked),
            Err((back, err))
                if matches!(
                    err.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                ) =>
            {
                if Instant::now() >= until {
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "another process held its lock until the deadline",
                    ));
                }
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
                file = back;
            }
            Err((_, err)) => return Err(err),
        }
    }
}

/// Under `ulimit -f`, a write past the limit raises SIGXFSZ, whose default
/// kills hookrun before it answers. With a handler installed the write
/// fails with `EFBIG` instead, which every writer already reports. A
/// handler (not "ignore") because exec resets handlers: hooks still start
/// with the default disposition.
pub fn survive_file_size_limit() {
    platform::survive_file_size_limit();
}

/// Whether `file` is this process's own stdout or stderr (the same device
/// and inode): a log written there would corrupt the answer.
pub fn is_own_output(file: &File) -> bool {
    file.metadata().is_ok_and(|meta| is_own_output_meta(&meta))
}

/// Whether `path`, links followed, is this process's stdout or stderr.
pub fn names_own_output(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|meta| is_own_output_meta(&meta))
}

fn is_own_output_meta(meta: &std::fs::Metadata) -> bool {
    // Duplicates of the descriptors, for std's `fstat` (the same on every
    // platform, whatever its `dev_t` and `ino_t`).
    platform::own_outputs().iter().any(|own| {
        own.metadata()
            .is_ok_and(|own| platform::same_file(&own, meta))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::platform::unix_only! {
    fn fifo(dir: &Path) -> std::path::PathBuf {
        let path = dir.join("fifo");
        nix::unistd::mkfifo(&path, nix::sys::stat::Mode::S_IRWXU).unwrap();
        path
    }
    }

    crate::platform::unix_only! {
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let path = fifo(dir.path());
        let err = read(&path, Follow::Yes).unwrap_err();
        assert!(
            err.to_string().contains("a FIFO, not a regular file"),
            "{err}"
        );
        let err = read_settings(&path).unwrap_err();
        assert!(err.to_string().contains("a FIFO"), "{err}");
        for how in [Write::Append, Write::Update, Write::Truncate] {
            let err = open_private(&path, how).unwrap_err();
            assert!(err.to_string().contains("a FIFO"), "{how:?}: {err}");
        }
    }
    }

    crate::platform::unix_only! {
    #[test]
    fn private_files_are_0600_and_never_written_through_a_link() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("precious");
        std::fs::write(&target, "keep me").unwrap();
        let link = dir.path().join("state");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        for how in [
            Write::Append,
            Write::Update,
            Write::Truncate,
            Write::CreateNew,
        ] {
            let err = open_private(&link, how).unwrap_err();
            assert!(
                how == Write::CreateNew || err.to_string().contains("symbolic link"),
                "{how:?}: {err}"
            );
        }
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
        let fresh = dir.path().join("fresh");
        drop(open_private(&fresh, Write::Append).unwrap());
        let mode = std::fs::metadata(&fresh).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    }

    #[test]
    fn only_descriptor_paths_may_be_pipes() {
        assert!(names_a_descriptor(Path::new("/dev/fd/63")));
        assert!(names_a_descriptor(Path::new("/proc/self/fd/7")));
        assert!(!names_a_descriptor(Path::new("/dev/fd/")));
        assert!(!names_a_descriptor(Path::new("/dev/fd/7/x")));
        assert!(!names_a_descriptor(Path::new("/p/.hookrun/settings.json")));
    }
}
