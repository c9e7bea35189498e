/**
 * The fenced lock on PostgreSQL alone ({@link io.seatlock.lock.postgres.PostgresLock}) and the fence that admits a
 * write only while the writer's lease is current ({@link io.seatlock.lock.postgres.PostgresLeaseFence}).
 */
@NullMarked
package io.seatlock.lock.postgres;

import org.jspecify.annotations.NullMarked;
