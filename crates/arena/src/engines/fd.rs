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
pub(crate) fn wait_fd(fd: BorrowedFd<'_>, events: libc::c_short, timeout: Duration) -> bool {
    let ms = timeout.as_nanos().div_ceil(1_000_000);
    let mut pfd = libc::pollfd {
        fd: fd.as_raw_fd(),
        events,
        revents: 0,
    };
    let ms = libc::c_int::try_from(ms).unwrap_or(libc::c_int::MAX);
    // SAFETY: one valid pollfd, for a descriptor that `fd` keeps open.
    match unsafe { libc::poll(&mut pfd, 1, ms) } {
        0 => false,
        n if n > 0 => true,
        // A signal is a spurious wake-up: the caller looks again with the time left.
        _ => std::io::Error::last_os_error().kind() == ErrorKind::Interrupted,
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
