package io.seatlock.test;

import io.seatlock.test.WriteHistory.Outcome;
import org.junit.jupiter.api.Test;

import static io.seatlock.test.WriteHistory.write;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WriteHistoryTest {

    @Test
    void aWriteWithoutAWriterIsRefusedWhenMadeNotWhenJudged() {
        assertThatThrownBy(() -> WriteHistory.write(null, 7)).isInstanceOf(NullPointerException.class)
                .hasMessage("writer");
    }

    @Test
    void theFourteenCStoryGuardedPasses() {
        WriteHistory history = new WriteHistory();
        history.attempt("server-a", "14C", 10).told(Outcome.REJECTED, "409 seat-taken");
        history.attempt("server-b", "14C", 11).told(Outcome.CONFIRMED, "201");
        history.stored("14C", write("server-b", 11));
        assertThatCode(history::verify).doesNotThrowAnyException();
    }

    @Test
    void twoConfirmedBuyersAreCaughtWithATimeline() {
        WriteHistory history = new WriteHistory();
        history.attempt("server-a", "14C", 10).told(Outcome.CONFIRMED, "201");
        history.attempt("server-b", "14C", 11).told(Outcome.CONFIRMED, "201");
        history.stored("14C", write("server-a", 10));
        assertThatThrownBy(history::verify).isInstanceOf(AssertionError.class)
                .hasMessageContaining("2 callers were told it was theirs [server-a, server-b]")
                .hasMessageContaining("server-b was told its write was done, but storage does not hold it")
                .hasMessageContaining("timeline:").hasMessageContaining("server-a writes 14C with token 10");
    }

    @Test
    void anOlderTokenAcceptedAfterANewerOneIsCaughtEvenInASequence() {
        WriteHistory history = new WriteHistory().sequence("ledger");
        history.attempt("leader-1", "ledger", 5).told(Outcome.CONFIRMED, "written");
        history.attempt("leader-2", "ledger", 7).told(Outcome.CONFIRMED, "written");
        history.stored("ledger", write("leader-2", 7), write("leader-1", 5));
        assertThatThrownBy(history::verify).hasMessageContaining("leader-1's token 5 was accepted after the newer token 7");
        WriteHistory fine = new WriteHistory().sequence("ledger");
        fine.stored("ledger", write("leader-1", 5), write("leader-2", 7));
        assertThatCode(fine::verify).doesNotThrowAnyException();
    }

    @Test
    void twoEffectiveWritersOfOneSlotAreCaught() {
        WriteHistory history = new WriteHistory();
        history.stored("capture@12:00", write("replica-1", 0), write("replica-2", 0));
        assertThatThrownBy(history::verify).hasMessageContaining("2 effective writers [replica-1, replica-2]");
    }

    @Test
    void aWriteWithoutATokenInBetweenHidesNoOlderTokenAcceptedAfterANewerOne() {
        WriteHistory history = new WriteHistory().sequence("ledger");
        history.stored("ledger", write("leader-2", 7), write("operator", 0), write("leader-1", 5));
        assertThatThrownBy(history::verify).hasMessageContaining("leader-1's token 5 was accepted after the newer token 7");
    }

    @Test
    void aCallerToldItsWriteDidNotHappenWhileStorageHoldsItIsCaught() {
        WriteHistory history = new WriteHistory();
        history.attempt("lena", "14C", 0).told(Outcome.REJECTED, "409 seat-taken");
        history.stored("14C", write("lena", 0));
        assertThatThrownBy(history::verify)
                .hasMessageContaining("14C: lena was told its write did not happen, but storage holds it");
    }

    @Test
    void aRejectedAttemptFollowedByAConfirmedRetryOfTheSameWriterPasses() {
        WriteHistory history = new WriteHistory();
        history.attempt("lena", "14C", 0).told(Outcome.REJECTED, "503 try again");
        history.attempt("lena", "14C", 0).told(Outcome.CONFIRMED, "201");
        history.stored("14C", write("lena", 0));
        assertThatCode(history::verify).doesNotThrowAnyException();
        WriteHistory unknown = new WriteHistory();
        unknown.attempt("omar", "14D", 0).told(Outcome.REJECTED, "409");
        unknown.attempt("omar", "14D", 0).told(Outcome.UNKNOWN, "timed out");
        unknown.stored("14D", write("omar", 0));
        assertThatCode(unknown::verify).as("an unknown outcome may have written").doesNotThrowAnyException();
    }
}
