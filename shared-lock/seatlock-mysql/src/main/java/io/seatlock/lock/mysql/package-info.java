/**
 * The fenced lock on MySQL 8 or MariaDB 10.11 and later alone ({@link io.seatlock.lock.mysql.MySqlLock}) and the fence
 * that admits a write only while the writer's lease is current ({@link io.seatlock.lock.mysql.MySqlLeaseFence}).
 */
@NullMarked
package io.seatlock.lock.mysql;

import org.jspecify.annotations.NullMarked;
