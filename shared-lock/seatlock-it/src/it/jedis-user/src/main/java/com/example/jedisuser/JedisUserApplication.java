package com.example.jedisuser;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A user on Jedis: the starter with Lettuce excluded, seatlock-redis-jedis, seatlock.lock.redis-url. */
@SpringBootApplication
public class JedisUserApplication {
}
