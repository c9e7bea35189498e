package io.seatlock.jobs.operations;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/operations}: the data behind the operations page ({@code /}). Read-only. */
@RestController
class OperationsController {

    private final OperationsReadModel operations;

    OperationsController(OperationsReadModel operations) {
        this.operations = operations;
    }

    @GetMapping("/api/operations")
    OperationsView operations() {
        return operations.read();
    }
}
