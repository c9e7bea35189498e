package io.seatlock.lock.internal;

/**
 * For implementations: how to run code the user handed in (a lost-lease callback, a leadership callback, a
 * {@link io.seatlock.lock.LockListener}). Whatever it throws, an {@link Error} included, is logged and ignored,
 * as ShedLock's {@code safeEmit}: the lock, the election and the thread that ran it go on as if it had
 * returned. A {@link VirtualMachineError} is not ignored: nothing can be trusted to go on after one.
 */
public final class Callbacks {

    private static final System.Logger LOG = System.getLogger(Callbacks.class.getName());

    private Callbacks() {
    }

    /**
     * Runs {@code callback}, guarded.
     *
     * @param callback the user's code
     * @param what     what it is, for the log (e.g. {@code lost-lease callback of 'job:1'})
     */
    public static void runGuarded(Runnable callback, String what) {
        try {
            callback.run();
        } catch (RuntimeException | Error e) {
            ignore(e, what);
        }
    }

    /**
     * What to do with what the user's code threw, for callers that cannot wrap it in a {@link Runnable}
     * cheaply: logs it as a warning, or rethrows it if it is a {@link VirtualMachineError}.
     *
     * @param thrown what the user's code threw
     * @param what   what the code is, for the log
     */
    public static void ignore(Throwable thrown, String what) {
        if (thrown instanceof VirtualMachineError fatal) {
            throw fatal;
        }
        LOG.log(System.Logger.Level.WARNING, what + " failed; ignored", thrown);
    }
}
