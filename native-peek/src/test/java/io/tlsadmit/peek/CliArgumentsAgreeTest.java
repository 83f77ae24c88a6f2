package io.tlsadmit.peek;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tlsadmit.classifier.cli.ClassifyCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Both CLIs accept and refuse the same arguments, with the same exit status and standard output. Arguments are
 * one string split on spaces; {@code HELLO} stands for a recorded hello, {@code STDIN} for {@code -} fed that hello.
 */
@Tag("native")
class CliArgumentsAgreeTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "HELLO",
        "HELLO HELLO",
        "--server-max-version 1.2 HELLO",
        "HELLO --server-max-version TLSv1.2",
        "--server-max-version 1.4 HELLO",
        "--server-max-version",
        "--max-hello-length 64 HELLO",
        "--max-hello-length 63 HELLO",
        "--max-hello-length +300 HELLO",
        "--max-hello-length 16777215 HELLO",
        "--max-hello-length 16777216 HELLO",
        "--max-hello-length 99999999999 HELLO",
        "--max-hello-length abc HELLO",
        "--max-hello-length -5 HELLO",
        "--bogus HELLO",
        "",
        "/nonexistent/file.bin",
        "/nonexistent/file.bin HELLO",
        "STDIN",
        "-h",
        "HELLO --help",
    })
    void bothCliFormsAgree(String arguments) throws Exception {
        Path hello = RecordedHellos.all().get(0).file();
        List<String> args = new ArrayList<>();
        boolean stdin = false;
        for (String arg : arguments.split(" ")) {
            if (arg.isEmpty()) {
                continue;
            }
            stdin |= arg.equals("STDIN");
            args.add(arg.equals("HELLO") ? hello.toString() : arg.equals("STDIN") ? "-" : arg);
        }
        List<String> java = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", Path.of(ClassifyCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                        .toString(), ClassifyCommand.class.getName()));
        java.addAll(args);
        List<String> c = new ArrayList<>(List.of(ClassifierAgreementTest.cli().toString()));
        c.addAll(args);
        Path input = stdin ? hello : null;
        assertEquals(run(java, input), run(c, input), arguments);
    }

    private static String run(List<String> command, Path stdin) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
        if (stdin != null) {
            builder.redirectInput(stdin.toFile());
        }
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("timed out: " + command);
        }
        boolean usage = out.startsWith("usage:");
        // the usage text names its own program; compare everything else
        return "exit " + process.exitValue() + "\n" + (usage ? "usage" : out);
    }
}
