//! How a run's result reaches JavaScript. A short script is over in microseconds on
//! the engine's thread, while waking Node's event loop to settle a promise from that
//! thread (a thread-safe function: an eventfd write, an epoll wake-up, a queue turn)
//! costs more than the script did. So the JavaScript thread waits a little for the
//! result, without blocking on anything: if it arrives within [`SPIN`], the call
//! returns it as a plain value (`await` takes it as it is); otherwise the call returns
//! a promise, made only then, that the engine's thread settles when the run ends.
//! Either way the script ran on the engine's thread.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use napi::bindgen_prelude::{Either, Object};
use napi::{Env, JsDeferred};
use shellbox::interp::ExecOutput;

use crate::sandbox::{RunResult, run_result};

/// How long the JavaScript thread waits for a run before handing back a promise:
/// a few times what `echo hi` costs, and short enough that a long script holds the
/// event loop up for no more than that.
const SPIN: Duration = Duration::from_micros(150);

type Resolver = Box<dyn FnOnce(Env) -> napi::Result<RunResult> + Send>;

enum State {
    Waiting,
    Done(ExecOutput),
    /// The JavaScript thread stopped waiting: settle this promise.
    Promised(JsDeferred<RunResult, Resolver>),
    /// Handed over.
    Over,
}

/// Where one run's JavaScript caller and its engine thread meet.
pub(crate) struct Handoff {
    done: AtomicBool,
    state: Mutex<State>,
}

impl Handoff {
    pub(crate) fn new() -> Arc<Handoff> {
        Arc::new(Handoff {
            done: AtomicBool::new(false),
            state: Mutex::new(State::Waiting),
        })
    }

    /// Called once, on the engine's thread, with the run's output.
    pub(crate) fn finish(&self, out: ExecOutput) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match std::mem::replace(&mut *st, State::Over) {
            State::Promised(deferred) => deferred.resolve(Box::new(move |_| Ok(run_result(out)))),
            _ => {
                *st = State::Done(out);
                self.done.store(true, Ordering::Release);
            }
        }
    }

    /// On the JavaScript thread, once: the result if it comes within [`SPIN`], else a
    /// promise of it. `js_busy` says the run waits for JavaScript itself (a custom
    /// command), which ends the wait at once.
    pub(crate) fn result<'env>(
        &self,
        env: &'env Env,
        js_busy: impl Fn() -> bool,
    ) -> napi::Result<Either<RunResult, Object<'env>>> {
        shellbox::session::linger(SPIN, || self.done.load(Ordering::Acquire) || js_busy());
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let State::Done(_) = &*st
            && let State::Done(out) = std::mem::replace(&mut *st, State::Over)
        {
            return Ok(Either::A(run_result(out)));
        }
        let (deferred, promise) = env.create_deferred::<RunResult, Resolver>()?;
        *st = State::Promised(deferred);
        Ok(Either::B(promise))
    }
}

/// A promise rejected with `err` (a run that could not start).
pub(crate) fn rejected<'env>(
    env: &'env Env,
    err: napi::Error,
) -> napi::Result<Either<RunResult, Object<'env>>> {
    let (deferred, promise) = env.create_deferred::<RunResult, Resolver>()?;
    deferred.reject(err);
    Ok(Either::B(promise))
}
