package io.tlsadmit.peek;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.classifier.ClientHello;
import io.tlsadmit.classifier.ClientHelloClassifier;
import io.tlsadmit.classifier.ServerPolicy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The C CLI ({@code target/tlsadmit-classify}) and the Java classifier print the same JSON line, every key, for
 * every recorded hello, each of them re-framed into small records, and thousands of seeded mutations, under three
 * server policies.
 */
@Tag("native")
class ClassifierAgreementTest {
    private static final long SEED = Long.getLong("native.agreement.seed", 20261122L);
    private static final int MUTATIONS = Integer.getInteger("native.agreement.mutations", 3000);
    private static final int FILES_PER_RUN = 500;

    private record Policy(String maxVersion, int maxHelloLength) {
        ServerPolicy toServerPolicy() {
            return ServerPolicy.of(maxVersion, maxHelloLength);
        }
    }

    @Test
    void cAndJavaPrintIdenticalLinesForRecordedHellosAndTheirMutations(@TempDir Path dir) throws Exception {
        List<byte[]> inputs = new ArrayList<>();
        List<RecordedHellos.Hello> recorded = RecordedHellos.all();
        for (RecordedHellos.Hello hello : recorded) {
            inputs.add(hello.bytes());
            for (int size : new int[] {1, 7, 100, 1000}) {
                inputs.add(HelloMutator.reframe(hello.bytes(), size));
            }
        }
        HelloMutator mutator = new HelloMutator(SEED);
        for (int i = 0; i < MUTATIONS; i++) {
            inputs.add(mutator.mutate(recorded.get(i % recorded.size()).bytes()));
        }
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            Path file = dir.resolve(String.format("input-%05d.bin", i));
            Files.write(file, inputs.get(i));
            files.add(file);
        }

        int compared = 0;
        List<String> differences = new ArrayList<>();
        for (Policy policy : List.of(new Policy("1.3", 16384), new Policy("1.2", 16384), new Policy("1.3", 512))) {
            List<String> c = cLines(policy, files);
            assertEquals(files.size(), c.size(), "the C CLI prints one line per file");
            ClientHelloClassifier classifier = new ClientHelloClassifier(policy.toServerPolicy());
            ClientHello hello = new ClientHello();
            for (int i = 0; i < files.size(); i++) {
                classifier.classify(ByteBuffer.wrap(inputs.get(i)), hello);
                String java = hello.toJson(files.get(i).toString());
                compared++;
                if (!java.equals(c.get(i)) && differences.size() < 5) {
                    differences.add(policy + " " + HexFormat.of().formatHex(inputs.get(i)) + "\n  java: " + java
                            + "\n  c:    " + c.get(i));
                }
            }
        }
        System.out.printf("agreement: %d inputs x 3 policies = %d comparisons (%d recorded hellos)%n",
                inputs.size(), compared, recorded.size());
        assertTrue(differences.isEmpty(), "C and Java disagree:\n" + String.join("\n", differences));
    }

    private static List<String> cLines(Policy policy, List<Path> files) throws IOException, InterruptedException {
        List<String> lines = new ArrayList<>();
        for (int from = 0; from < files.size(); from += FILES_PER_RUN) {
            List<String> command = new ArrayList<>(List.of(cli().toString(),
                    "--server-max-version", policy.maxVersion(),
                    "--max-hello-length", Integer.toString(policy.maxHelloLength())));
            files.subList(from, Math.min(files.size(), from + FILES_PER_RUN)).forEach(f -> command.add(f.toString()));
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the C CLI finishes");
            assertEquals(0, process.exitValue(), "the C CLI exit status");
            out.lines().forEach(lines::add);
        }
        return lines;
    }

    static Path cli() {
        Path cli = Path.of(System.getProperty("native.cli", "target/tlsadmit-classify"));
        assertTrue(Files.isExecutable(cli), "the build makes " + cli);
        return cli;
    }
}
