package io.seatlock.lock.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The application's database ({@link SpringDatabase}) as each Spring Boot line's {@code JdbcConnectionDetails} say. */
@Configuration(proxyBeanMethods = false)
class SpringDatabases {

    /** The application's database as Spring Boot 4 says it. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = Boot4Jdbc.DETAILS)
    static class Boot4Jdbc {
        static final String DETAILS = "org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails";

        @Bean
        @ConditionalOnBean(type = DETAILS)
        SpringDatabase seatlockSpringDatabase(org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails details) {
            return new SpringDatabase(details.getJdbcUrl(), details.getUsername(), details.getPassword());
        }
    }

    /** The application's database as Spring Boot 3.5 says it. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = Boot3Jdbc.DETAILS)
    static class Boot3Jdbc {
        static final String DETAILS = "org.springframework.boot.autoconfigure.jdbc.JdbcConnectionDetails";

        @Bean
        @ConditionalOnBean(type = DETAILS)
        SpringDatabase seatlockSpringDatabase(org.springframework.boot.autoconfigure.jdbc.JdbcConnectionDetails details) {
            return new SpringDatabase(details.getJdbcUrl(), details.getUsername(), details.getPassword());
        }
    }
}
