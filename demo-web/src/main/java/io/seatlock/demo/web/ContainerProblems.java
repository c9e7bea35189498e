package io.seatlock.demo.web;

import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What Tomcat answers by itself, as an RFC 9457 problem of the application's types: a request it refuses before any
 * servlet sees it (a malformed Host header; a path with an encoded slash or backslash, or a NUL), and, with Spring
 * Boot's error page off, an error it answers inside the application (a {@code TRACE}, an exception past Spring MVC).
 * Tomcat's error report valve wrote an HTML page. An error that reached Spring MVC has its body by then and is left
 * alone; Spring MVC's own errors are the application's handler's. Register it as a bean, with the application's
 * problem type for each status.
 */
public final class ContainerProblems implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> {

    /**
     * A problem's type and title.
     *
     * @param type  the problem type's URI
     * @param title its title, or null for none
     */
    public record Type(URI type, String title) {
    }

    private final JsonMapper json;
    private final IntFunction<Type> types;

    /**
     * @param json  how to write the body
     * @param types the problem type of each status Tomcat answers with
     */
    public ContainerProblems(JsonMapper json, IntFunction<Type> types) {
        this.json = Objects.requireNonNull(json, "json");
        this.types = Objects.requireNonNull(types, "types");
    }

    @Override
    public void customize(ConfigurableTomcatWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            Pipeline host = context.getParent().getPipeline();
            for (Valve valve : host.getValves()) {
                if (valve instanceof ErrorReportValve) {
                    host.removeValve(valve); // Spring Boot's, showing no report
                }
            }
            host.addValve(new ProblemReportValve(json, types));
            if (context.getParent() instanceof StandardHost standard) {
                // else the host adds Tomcat's own when it starts, which, added last, would write first; with this
                // class named, it finds the instance above and adds none
                standard.setErrorReportValveClass(ProblemReportValve.class.getName());
            }
        });
    }

    static final class ProblemReportValve extends ErrorReportValve {

        private final JsonMapper json;
        private final IntFunction<Type> types;

        ProblemReportValve(JsonMapper json, IntFunction<Type> types) {
            this.json = json;
            this.types = types;
        }

        @Override
        protected void report(Request request, Response response, Throwable throwable) {
            int status = response.getStatus();
            if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
                return;
            }
            AtomicBoolean ioAllowed = new AtomicBoolean();
            response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
            if (!ioAllowed.get()) {
                return;
            }
            Type type = types.apply(status);
            Map<String, Object> problem = new LinkedHashMap<>();
            problem.put("type", type.type().toString());
            if (type.title() != null) {
                problem.put("title", type.title());
            }
            problem.put("status", status);
            problem.put("detail", detail(request, response));
            try {
                response.setContentType("application/problem+json"); // JSON is UTF-8: no charset, as Spring MVC writes it
                response.getOutputStream().write(json.writeValueAsBytes(problem));
                response.finishResponse();
            } catch (IOException | RuntimeException e) {
                container.getLogger().debug("could not write the problem body", e);
            }
        }

        /** What happened, in the server's words; nothing of the request's own. */
        private static String detail(Request request, Response response) {
            if (response.getStatus() >= 500) {
                return "the request failed unexpectedly; the replica logged why";
            }
            String message = response.getMessage();
            if (request.getContext() == null || message == null || message.isBlank()) {
                return "the server refused the request before the application read it (a malformed Host header, or an "
                        + "encoded slash or backslash or a NUL in the path, say)";
            }
            return message;
        }
    }
}
