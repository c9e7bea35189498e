package com.example.replicas;

import org.springframework.stereotype.Component;

/** A bean that reads the schema while the application starts (a cache warm-up, a start-up check). */
@Component
public class FirstAccountOnStart {

    private final String summary;

    public FirstAccountOnStart(AccountRepository accounts) {
        Account first = accounts.findById(1L).orElseThrow(() -> new IllegalStateException("account 1 missing at start"));
        this.summary = first.getOwner() + "/" + first.getTier();
    }

    public String summary() {
        return summary;
    }
}
