package io.seatlock.lock.autoconfigure;

import java.util.function.Supplier;

/**
 * A configuration mistake that stops the application while it starts, with what is wrong and what to do about it
 * ({@link InvalidSeatlockConfigurationFailureAnalyzer} prints both as Spring Boot's start-up failure report).
 */
final class InvalidSeatlockConfigurationException extends IllegalStateException {

    private final String description;
    private final String action;

    /**
     * @param description what is wrong, naming the property (or properties) to change
     * @param action      what to do
     * @param cause       the library's own refusal, or null
     */
    InvalidSeatlockConfigurationException(String description, String action, Throwable cause) {
        super(description + " Action: " + action, cause); // whole where no failure analyzer reads it
        this.description = description;
        this.action = action;
    }

    String description() {
        return description;
    }

    String action() {
        return action;
    }

    /**
     * {@code check}'s value, or the library's refusal of a value ({@link IllegalArgumentException}) reported as a
     * mistake in {@code property}.
     */
    static <T> T checked(String property, String action, Supplier<T> check) {
        try {
            return check.get();
        } catch (IllegalArgumentException e) {
            throw new InvalidSeatlockConfigurationException("Invalid " + property + ": " + e.getMessage(), action, e);
        }
    }
}
