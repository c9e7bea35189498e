package io.seatlock.seats;

import io.seatlock.localservers.LibraryBoundary;
import org.junit.jupiter.api.Test;

class LibraryBoundaryTest {

    @Test
    void usesOnlyTheLibrarysPublicApi() {
        LibraryBoundary.checkUsesPublicApiOnly("io.seatlock.seats");
    }
}
