//! The two system calls the UCI client needs beyond `std`: `poll` on a pipe with a timeout and
//! making a pipe non-blocking. The only `unsafe` code in the arena's library is here
//! (`lib.rs` denies it everywhere else).

#![allow(unsafe_code)]

use std::io::ErrorKind;
use std::os::fd::{AsRawFd, BorrowedFd};
use std::time::Duration;

/// Waits up to `timeout` (rounded up to whole ms) for `fd` to be ready for `events`; `false`
/// when the time ran out. Hang-ups and errors count as ready: the read or write that follows
/// reports them.
///
/// # Errors
/// `poll(2)` itself failed (no memory, a descriptor limit): the wait did not happen, so it is no
/// timeout.
pub(crate) fn wait_fd(
    fd: BorrowedFd<'_>,
    events: libc::c_short,
    timeout: Duration,
) -> std::io::Result<bool> {
    let ms = timeout.as_nanos().div_ceil(1_000_000);
    let mut pfd = libc::pollfd {
        fd: fd.as_raw_fd(),
        events,
        revents: 0,
    };
    let ms = libc::c_int::try_from(ms).unwrap_or(libc::c_int::MAX);
    // SAFETY: one valid pollfd, for a descriptor that `fd` keeps open.
    match unsafe { libc::poll(&mut pfd, 1, ms) } {
        0 => Ok(false),
        n if n > 0 => Ok(true),
        _ => {
            let e = std::io::Error::last_os_error();
            // A signal is a spurious wake-up: the caller looks again with the time left.
            if e.kind() == ErrorKind::Interrupted {
                Ok(true)
            } else {
                Err(e)
            }
        }
    }
}

/// Makes a pipe non-blocking.
pub(crate) fn set_nonblocking(fd: BorrowedFd<'_>) -> std::io::Result<()> {
    // SAFETY: fcntl on a descriptor `fd` keeps open; no memory is passed.
    let flags = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_GETFL) };
    // SAFETY: as above.
    if flags < 0
        || unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0
    {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::fd::AsFd;
    use std::os::unix::net::UnixStream;

    #[test]
    fn a_wait_times_out_or_finds_the_descriptor_ready() {
        let (ours, mut theirs) = UnixStream::pair().unwrap();
        assert!(!wait_fd(ours.as_fd(), libc::POLLIN, Duration::from_millis(1)).unwrap());
        theirs.write_all(b"readyok\n").unwrap();
        assert!(wait_fd(ours.as_fd(), libc::POLLIN, Duration::from_secs(10)).unwrap());
        drop(theirs);
        assert!(wait_fd(ours.as_fd(), libc::POLLOUT, Duration::from_secs(10)).unwrap());
    }

    /// A `poll(2)` that fails is an error, not a timeout (it used to be taken for one, and the
    /// engine lost on time). With no descriptor allowed (`RLIMIT_NOFILE` 0) it fails with
    /// EINVAL; that limit is set in a child process, so that the other tests' threads keep theirs.
    #[test]
    fn a_poll_that_fails_is_an_error_not_a_timeout() {
        let (ours, _theirs) = UnixStream::pair().unwrap();
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the one struct it is given.
        assert_eq!(
            unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) },
            0
        );
        limit.rlim_cur = 0;
        // SAFETY: the child calls only setrlimit, poll and _exit (no allocation and no lock,
        // which another thread of the parent could have held at the fork).
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            let code = match (
                // SAFETY: as above.
                unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) },
                wait_fd(ours.as_fd(), libc::POLLIN, Duration::from_millis(50)),
            ) {
                (0, Err(e)) if e.raw_os_error() == Some(libc::EINVAL) => 0,
                (0, Ok(false)) => 1,
                _ => 2,
            };
            // SAFETY: ends the child without running the parent's destructors.
            unsafe { libc::_exit(code) };
        }
        assert!(pid > 0, "fork: {}", std::io::Error::last_os_error());
        let mut status = 0;
        // SAFETY: waits for the child started above.
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        assert!(libc::WIFEXITED(status), "status {status}");
        match libc::WEXITSTATUS(status) {
            0 => {}
            1 => panic!("a failed poll was taken for a timeout"),
            c => panic!("the child could not fail its poll as planned (exit {c})"),
        }
    }
}
