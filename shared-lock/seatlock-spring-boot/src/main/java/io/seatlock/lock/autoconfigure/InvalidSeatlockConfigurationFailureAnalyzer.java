package io.seatlock.lock.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Spring Boot's "APPLICATION FAILED TO START" report for a seatlock configuration mistake, instead of a stack trace. */
class InvalidSeatlockConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<InvalidSeatlockConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidSeatlockConfigurationException cause) {
        return new FailureAnalysis(cause.description(), cause.action(), cause);
    }
}
