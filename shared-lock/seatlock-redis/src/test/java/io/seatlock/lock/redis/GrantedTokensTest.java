package io.seatlock.lock.redis;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The floor the acquire script gets: the highest token granted per name here, never lower, bounded in names. */
class GrantedTokensTest {

    @Test
    void theFloorIsTheHighestTokenGrantedForTheNameAndNeverGoesDown() {
        GrantedTokens tokens = new GrantedTokens();
        assertThat(tokens.floor("14C")).isEqualTo("0");

        tokens.granted("14C", 1_733_000_000_000_001L);
        tokens.granted("14C", 1_733_000_000_000_005L);
        tokens.granted("14C", 7L); // a grant from a promoted replica that had forgotten the fence
        tokens.granted("14D", 42L);

        assertThat(tokens.floor("14C")).isEqualTo("1733000000000005");
        assertThat(tokens.floor("14D")).isEqualTo("42");
        assertThat(tokens.floor("14E")).isEqualTo("0");
    }

    @Test
    void pastTheMostNamesItStartsOverInsteadOfGrowing() {
        GrantedTokens tokens = new GrantedTokens();
        for (int i = 0; i < GrantedTokens.MAX_NAMES; i++) {
            tokens.granted("seat-" + i, i + 1);
        }
        tokens.granted("seat-1", 9); // a name it knows is raised in place, even at the bound
        assertThat(tokens.floor("seat-0")).isEqualTo("1");
        assertThat(tokens.floor("seat-1")).isEqualTo("9");

        tokens.granted("one-more", 5);

        assertThat(tokens.floor("seat-0")).isEqualTo("0");
        assertThat(tokens.floor("seat-1")).isEqualTo("0");
        assertThat(tokens.floor("one-more")).isEqualTo("5");
    }
}
