package io.tlsadmit.loadtests;

import static io.gatling.javaapi.core.CoreDsl.asLongAs;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.doIf;
import static io.gatling.javaapi.core.CoreDsl.doIfOrElse;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.core.CoreDsl.responseTimeInMillis;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.tlsadmit.loadtests.rubis.PageRequest;
import io.tlsadmit.loadtests.rubis.TransitionTable;
import io.tlsadmit.loadtests.rubis.Visit;
import io.tlsadmit.loadtests.run.CpuClock;
import io.tlsadmit.loadtests.run.LoopbackSources;
import io.tlsadmit.loadtests.run.Outcome;
import io.tlsadmit.loadtests.run.RunRecorder;
import io.tlsadmit.loadtests.run.RunRecorder.Series;
import io.tlsadmit.loadtests.run.RunReport;
import io.tlsadmit.loadtests.run.ServerMetrics;
import io.tlsadmit.loadtests.run.Settings;
import io.tlsadmit.loadtests.run.ThinkTime;
import io.tlsadmit.testing.PrometheusScrape;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;

/**
 * RUBiS users over HTTPS, as the 2005 TLS overload study ran them: each user walks the transition table with
 * think times, loads each page's images, gives up on a request unanswered for 10 s, and keeps its TLS session
 * for its whole visit. Configured by {@code -Drubis.*} properties (see README.md); figures of the run go to
 * {@code rubis.resultsDir}.
 *
 * <p>TLS: Gatling gives every virtual user its own SSL context and session cache, so the first connection of
 * a user is a full handshake and every later one (after the server closed an idle or used-up keep-alive
 * connection, or after a refusal) offers the user's session. By default one connection per user
 * ({@code maxConnectionsPerHost(1)}): images load one after the other on the page's connection, so a TLS 1.3
 * user never needs a second ticket while its only one is in use (see README.md, "Why images load one after
 * another").
 */
public class RubisSimulation extends Simulation {

    private static final String VISIT = "visit";
    private static final String REQUEST = "request";
    private static final String THINK = "thinkMillis";
    private static final String ATTEMPT = "attempt";
    private static final String OUTCOME = "outcome";
    private static final String GAVE_UP = "gaveUp";
    private static final String STATUS = "status";
    private static final String BODY = "body";
    private static final String RESPONSE_MILLIS = "responseMillis";
    private static final String SENT_AT = "sentAtNanos";
    private static final String IMAGE = "image";

    private final Settings settings = Settings.fromSystemProperties();
    private final TransitionTable table = TransitionTable.mix(settings.mix());
    private final ThinkTime thinkTime = new ThinkTime(settings.thinkTimeScale());
    private final ServerMetrics serverMetrics = new ServerMetrics(settings.metricsUrl());
    private final RunRecorder recorder = new RunRecorder();

    private String metricsBefore = "";
    private double loadGeneratorCpuBefore;
    private double serverCpuBefore;

    {
        HttpProtocolBuilder protocol = http.baseUrl(settings.baseUrl())
                .disableWarmUp()
                // the original client fetched every image of every page; so do we
                .disableCaching()
                .maxConnectionsPerHost(settings.connectionsPerUser())
                .acceptHeader("text/html,image/*;q=0.9,*/*;q=0.8")
                .userAgentHeader("tlsadmit-loadtests RUBiS client");
        if (settings.sourceAddresses() > 0) {
            // one loopback address per virtual user (round robin), so that the server tells users apart by host
            protocol = protocol.localAddresses(LoopbackSources.first(settings.sourceAddresses()));
        }
        if (settings.browserLikeResources()) {
            // Gatling loads the page's images itself, in parallel; our figures then count pages only
            protocol = protocol.inferHtmlResources().nameInferredHtmlResourcesAfterLastPathElement();
        }
        setUp(population(user())).protocols(protocol).maxDuration(settings.duration().plus(settings.drain()));
    }

    private PopulationBuilder population(ScenarioBuilder user) {
        if (settings.model() == Settings.ArrivalModel.CLOSED) {
            return user.injectClosed(constantConcurrentUsers(settings.concurrentUsers()).during(settings.duration()));
        }
        var arrivals = constantUsersPerSec(settings.usersPerSecond()).during(settings.duration());
        OpenInjectionStep step = settings.poissonArrivals() ? arrivals.randomized() : arrivals;
        return user.injectOpen(step);
    }

    private ScenarioBuilder user() {
        return scenario("RUBiS " + settings.mix())
                .exec(this::arrive)
                .asLongAs(session -> session.contains(REQUEST)).on(
                        pause(session -> Duration.ofMillis(session.getLong(THINK)))
                                .exec(attempts(pageRequest(), true))
                                .exitHereIf(session -> session.contains(GAVE_UP))
                                .foreach(session -> settings.browserLikeResources() ? List.of()
                                        : visit(session).images(), IMAGE).on(
                                        attempts(imageRequest(), false)
                                                .exitHereIf(session -> session.contains(GAVE_UP)))
                                .exec(this::planNext))
                .exec(session -> {
                    recorder.count(Series.SESSIONS_COMPLETED);
                    return session;
                });
    }

    private Session arrive(Session session) {
        recorder.count(Series.SESSIONS_STARTED);
        Random random = new Random(ThreadLocalRandom.current().nextLong());
        Visit visit = new Visit(table, random, settings.contextPath(), 1 + random.nextInt(settings.userCount()),
                settings.maxTransitions());
        return session.set(VISIT, visit).set(REQUEST, visit.plan()).set(THINK, 0L);
    }

    private Session planNext(Session session) {
        Visit visit = visit(session);
        PageRequest next = visit.plan();
        if (next == null) {
            return session.remove(REQUEST);
        }
        long think = thinkTime.millis(visit.meanThinkMillis(next.interaction()),
                ThreadLocalRandom.current().nextDouble());
        return session.set(REQUEST, next).set(THINK, think);
    }

    private ChainBuilder pageRequest() {
        return doIfOrElse(session -> request(session).isPost()).then(
                exec(http(session -> request(session).interaction().title())
                        .post(session -> request(session).path())
                        .formParamMap(session -> new HashMap<String, Object>(request(session).form()))
                        .requestTimeout(settings.requestTimeout())
                        .check(status().saveAs(STATUS), responseTimeInMillis().saveAs(RESPONSE_MILLIS),
                                bodyString().saveAs(BODY))))
                .orElse(
                exec(http(session -> request(session).interaction().title())
                        .get(session -> request(session).path())
                        .requestTimeout(settings.requestTimeout())
                        .check(status().saveAs(STATUS), responseTimeInMillis().saveAs(RESPONSE_MILLIS),
                                bodyString().saveAs(BODY))));
    }

    private ChainBuilder imageRequest() {
        return exec(http(session -> "image " + lastSegment(session.getString(IMAGE)))
                .get(session -> session.getString(IMAGE))
                .requestTimeout(settings.requestTimeout())
                .check(status().saveAs(STATUS), responseTimeInMillis().saveAs(RESPONSE_MILLIS)));
    }

    /**
     * One request with the paper's client behaviour around it: a refused connection is retried after a
     * back-off (the user's TLS session goes with it, so a known user resumes and is admitted) up to
     * {@code rubis.connectAttempts} times; no reply within the timeout makes the user give up.
     */
    private ChainBuilder attempts(ChainBuilder request, boolean page) {
        return exec(session -> session.set(ATTEMPT, 0).remove(OUTCOME))
                .asLongAs(this::mustTry).on(
                        doIf(session -> session.getInt(ATTEMPT) > 0).then(pause(settings.refusedBackoff()))
                                .exec(session -> session.markAsSucceeded().remove(STATUS).remove(BODY)
                                        .set(SENT_AT, System.nanoTime()))
                                .exec(request)
                                .exec(session -> afterAttempt(session, page)));
    }

    private boolean mustTry(Session session) {
        return !session.contains(OUTCOME)
                || (session.getString(OUTCOME).equals(Outcome.REFUSED.name()) && !session.contains(GAVE_UP));
    }

    private Session afterAttempt(Session session, boolean page) {
        long elapsedMillis = (System.nanoTime() - session.getLong(SENT_AT)) / 1_000_000;
        Outcome outcome = Outcome.classify(session.contains(STATUS), elapsedMillis,
                settings.requestTimeout().toMillis());
        int attempt = session.getInt(ATTEMPT) + 1;
        Session next = session.set(ATTEMPT, attempt).set(OUTCOME, outcome.name());
        if (page && visit(session).transitions() == 0) {
            countFirstPage(outcome, session.isFailed());
        }
        switch (outcome) {
            case REPLY -> {
                int responseMillis = session.getInt(RESPONSE_MILLIS);
                if (!page) {
                    recorder.reply(responseMillis);
                    return next.markAsSucceeded();
                }
                Visit visit = visit(session);
                PageRequest request = request(session);
                boolean first = visit.transitions() == 0;
                visit.arrived(request, session.getString(BODY));
                recorder.page(request.interaction().title(), responseMillis,
                        session.getInt(STATUS) >= 400 || visit.onErrorPage(), first);
                return next.remove(BODY).markAsSucceeded();
            }
            case TIMEOUT -> {
                recorder.count(Series.TIMEOUTS);
                recorder.count(Series.SESSIONS_ABANDONED);
                return next.set(GAVE_UP, true);
            }
            case REFUSED -> {
                recorder.count(Series.CONNECTIONS_REFUSED);
                if (attempt >= settings.connectAttempts()) {
                    recorder.count(Series.SESSIONS_REFUSED);
                    if (visit(session).transitions() > 0) {
                        recorder.count(Series.KNOWN_USERS_REFUSED);
                    }
                    return next.set(GAVE_UP, true);
                }
                return next;
            }
            default -> throw new AssertionError(outcome);
        }
    }

    /**
     * How the user's first page ended, for "tokens spent on users who then got no page": a reply with a failed
     * resource (browser-like, Gatling marks the session failed) or a timeout means the server let the user in
     * and the user still has no page; refused attempts cost the gate no token.
     */
    private void countFirstPage(Outcome outcome, boolean resourceFailed) {
        switch (outcome) {
            case REPLY -> recorder.count(resourceFailed ? Series.FIRST_PAGES_INCOMPLETE : Series.FIRST_PAGES);
            case TIMEOUT -> recorder.count(Series.FIRST_PAGES_TIMED_OUT);
            case REFUSED -> { }
            default -> throw new AssertionError(outcome);
        }
    }

    private static Visit visit(Session session) {
        return session.get(VISIT);
    }

    private static PageRequest request(Session session) {
        return session.get(REQUEST);
    }

    private static String lastSegment(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    @Override
    public void before() {
        metricsBefore = serverMetrics.scrape();
        loadGeneratorCpuBefore = CpuClock.loadGeneratorSeconds();
        serverCpuBefore = CpuClock.processSeconds(settings.serverPid());
        recorder.start();
    }

    @Override
    public void after() {
        double loadGeneratorCpu = CpuClock.loadGeneratorSeconds() - loadGeneratorCpuBefore;
        double serverCpuAfter = CpuClock.processSeconds(settings.serverPid());
        String metricsAfter = serverMetrics.scrape();
        RunReport report = RunReport.of(settings, recorder, loadGeneratorCpu,
                serverCpuBefore < 0 || serverCpuAfter < 0 ? -1 : serverCpuAfter - serverCpuBefore,
                PrometheusScrape.parse(metricsBefore), PrometheusScrape.parse(metricsAfter));
        report.write(settings.resultsDir(), recorder, metricsBefore, metricsAfter);
        System.out.println("rubis: run figures in " + settings.resultsDir().toAbsolutePath());
        List.of("sessionsStarted", "sessionsCompleted", "sessionsAbandoned", "sessionsRefused", "repliesPerSec",
                "pageMillisP50", "pageMillisP99", "firstPageMillisP99", "laterPageMillisP99", "serverFullHandshakes",
                "serverResumedHandshakes", "serverConnectionsRefused").forEach(key -> {
                    if (report.figures().containsKey(key)) {
                        System.out.println("rubis:   " + key + " = " + report.figures().get(key));
                    }
                });
    }
}
