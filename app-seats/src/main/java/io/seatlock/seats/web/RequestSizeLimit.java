package io.seatlock.seats.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/** Turns away API bodies over 16 KiB before anything reads them: 413 with a problem body, nothing written. */
@Component
class RequestSizeLimit extends OncePerRequestFilter {

    static final long MAX_BODY_BYTES = 16 * 1024;

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getRequestURI().startsWith("/api/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > MAX_BODY_BYTES) {
            response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setCharacterEncoding("UTF-8");
            response.getWriter().write("{\"type\":\"/problems/body-too-large\",\"title\":\"Body too large\","
                    + "\"status\":413,\"detail\":\"request bodies are limited to " + MAX_BODY_BYTES + " bytes\"}");
            return;
        }
        chain.doFilter(request, response);
    }
}
