package com.example.replicas;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** Mapped to V2's schema: with ddl-auto=validate, Hibernate refuses to start on V1. */
@Entity
@Table(name = "accounts")
public class Account {

    @Id
    private Long id;
    private String owner;
    private String tier;

    protected Account() {
    }

    public String getOwner() {
        return owner;
    }

    public String getTier() {
        return tier;
    }
}
