package io.seatlock.seats.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import io.seatlock.seats.problems.ProblemType;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;

/**
 * Limits API bodies to 16 KiB on the stream itself, whatever {@code Content-Length} says (or a chunked
 * body does not say): a declared size over the limit is turned away before anything is read; an
 * undeclared one is read up to the limit and no further, then answered 413 with a problem body. Nothing
 * is written either way.
 */
@Component
class RequestSizeLimit extends OncePerRequestFilter {

    static final long MAX_BODY_BYTES = 16 * 1024;

    private final JsonMapper json;

    RequestSizeLimit(JsonMapper json) {
        this.json = json;
    }

    /** Thrown by the limited stream; {@link ProblemHandler} answers it with 413. */
    static final class BodyTooLarge extends IOException {
        BodyTooLarge() {
            super("request bodies are limited to " + MAX_BODY_BYTES + " bytes");
        }
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getRequestURI().startsWith("/api/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > MAX_BODY_BYTES) {
            ProblemType type = ProblemType.BODY_TOO_LARGE;
            response.setStatus(type.status().value());
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setCharacterEncoding("UTF-8");
            json.writeValue(response.getWriter(), type.problem("request bodies are limited to " + MAX_BODY_BYTES
                    + " bytes; nothing was written"));
            return;
        }
        chain.doFilter(new LimitedRequest(request), response);
    }

    private static final class LimitedRequest extends HttpServletRequestWrapper {
        private ServletInputStream limited;

        LimitedRequest(HttpServletRequest request) {
            super(request);
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (limited == null) {
                limited = new LimitedStream(super.getInputStream());
            }
            return limited;
        }
    }

    private static final class LimitedStream extends ServletInputStream {
        private final ServletInputStream in;
        private long read;

        LimitedStream(ServletInputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0 && ++read > MAX_BODY_BYTES) {
                throw new BodyTooLarge();
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            long room = MAX_BODY_BYTES + 1 - read; // one byte past the limit tells "too large" from "exactly full"
            if (room <= 0) {
                throw new BodyTooLarge();
            }
            int n = in.read(buffer, offset, (int) Math.min(length, room));
            if (n > 0 && (read += n) > MAX_BODY_BYTES) {
                throw new BodyTooLarge();
            }
            return n;
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
