package io.tlsadmit.tomcat.worker;

/** A worker task that can say how much work it is; anything else counts as {@link WorkClass#SHORT}. */
public interface RankedWork {

    /** Asked once, when the task is queued; must be cheap and must not throw. */
    WorkClass workClass();
}
