package io.seatlock.seats.booking;

import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/** Who wants the seat. */
public record BookingRequest(
        @NotBlank @Email(regexp = "[^\\s<>\"'`;]+@[^\\s<>\"'`;]+\\.[^\\s<>\"'`;]+") @Size(max = 254) String buyer,
        @NotBlank @Size(max = 100) @Pattern(regexp = "[^\\p{Cntrl}\\u202A-\\u202E\\u2066-\\u2069<>]*",
                message = "must not contain control characters (bidirectional overrides included) or angle brackets")
        String name) {
}
