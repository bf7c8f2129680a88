//! `NativeProcess`: a command started by `NativeSandbox.spawn`, running in the
//! background while JavaScript goes on. Output is pulled chunk by chunk (the
//! JavaScript layer wraps the pulls in `ReadableStream`s), stdin is pushed through a
//! bounded pipe, and `wait`/`kill` resolve when the command has ended.

use std::sync::Arc;

use napi::Env;
use napi::bindgen_prelude::{Buffer, PromiseRaw};
use napi_derive::napi;
use shellbox::session::{ByteStream, ProcessStdin, SandboxProcess};
use tokio::sync::Mutex;

use crate::error;
use crate::sandbox::{StopInfo, stop_info};

/// How a process ended.
#[napi(object)]
pub struct ExitInfo {
    pub exit_code: i32,
    pub stopped: Option<StopInfo>,
}

/// A running (or finished) background command.
#[napi]
pub struct NativeProcess {
    pid: u32,
    proc: Arc<SandboxProcess>,
    stdout: Arc<Mutex<ByteStream>>,
    stderr: Arc<Mutex<ByteStream>>,
    stdin: Option<Arc<ProcessStdin>>,
}

impl NativeProcess {
    pub(crate) fn new(mut p: SandboxProcess) -> NativeProcess {
        let stdout = std::mem::replace(&mut p.stdout, ByteStream::empty());
        let stderr = std::mem::replace(&mut p.stderr, ByteStream::empty());
        let stdin = p.stdin.take().map(Arc::new);
        NativeProcess {
            pid: p.pid(),
            proc: Arc::new(p),
            stdout: Arc::new(Mutex::new(stdout)),
            stderr: Arc::new(Mutex::new(stderr)),
            stdin,
        }
    }
}

fn next_chunk<'env>(
    env: &'env Env,
    stream: &Arc<Mutex<ByteStream>>,
) -> napi::Result<PromiseRaw<'env, Option<Buffer>>> {
    let stream = stream.clone();
    env.spawn_future(async move { Ok(stream.lock().await.next_chunk().await.map(Buffer::from)) })
}

#[napi]
impl NativeProcess {
    #[napi(getter)]
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// The next chunk of stdout, or `null` at its end.
    #[napi]
    pub fn next_stdout<'env>(
        &self,
        env: &'env Env,
    ) -> napi::Result<PromiseRaw<'env, Option<Buffer>>> {
        next_chunk(env, &self.stdout)
    }

    /// The next chunk of stderr, or `null` at its end.
    #[napi]
    pub fn next_stderr<'env>(
        &self,
        env: &'env Env,
    ) -> napi::Result<PromiseRaw<'env, Option<Buffer>>> {
        next_chunk(env, &self.stderr)
    }

    /// Whether the process was spawned with a stdin pipe.
    #[napi(getter)]
    pub fn has_stdin(&self) -> bool {
        self.stdin.is_some()
    }

    /// Writes to the process's stdin; resolves once the pipe took it all (rejects
    /// with `EPIPE` after the process ended or stdin was closed).
    #[napi]
    pub fn write_stdin<'env>(
        &self,
        env: &'env Env,
        data: Buffer,
    ) -> napi::Result<PromiseRaw<'env, ()>> {
        let data = data.to_vec();
        let stdin = self.stdin.clone();
        env.spawn_future(async move {
            let Some(stdin) = stdin else {
                return Err(error("EPIPE", "the process has no stdin pipe"));
            };
            let written = tokio::task::spawn_blocking(move || stdin.write(&data)).await;
            match written {
                Ok(Ok(())) => Ok(()),
                Ok(Err(e)) => Err(error("EPIPE", format!("write to stdin: {e}"))),
                Err(e) => Err(error("EINTERNAL", format!("write to stdin: {e}"))),
            }
        })
    }

    /// Closes stdin: the process reads end of file. Closing again does nothing.
    #[napi]
    pub fn close_stdin(&self) {
        if let Some(stdin) = &self.stdin {
            stdin.close();
        }
    }

    /// The exit status, if the process has ended.
    #[napi]
    pub fn try_status(&self) -> Option<i32> {
        self.proc.try_status()
    }

    /// Resolves when the process ends.
    #[napi]
    pub fn wait<'env>(&self, env: &'env Env) -> napi::Result<PromiseRaw<'env, ExitInfo>> {
        let proc = self.proc.clone();
        env.spawn_future(async move {
            let exit_code = proc.wait().await;
            Ok(ExitInfo {
                exit_code,
                stopped: proc.stopped().map(stop_info),
            })
        })
    }

    /// Stops the process; resolves when it has ended (at once if it had).
    #[napi]
    pub fn kill<'env>(&self, env: &'env Env) -> napi::Result<PromiseRaw<'env, ()>> {
        let proc = self.proc.clone();
        env.spawn_future(async move {
            proc.kill().await;
            Ok(())
        })
    }
}
