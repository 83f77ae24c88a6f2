package io.tlsadmit.classifier.cli;

import io.tlsadmit.classifier.ClientHello;
import io.tlsadmit.classifier.ClientHelloClassifier;
import io.tlsadmit.classifier.ServerPolicy;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code java -jar ssl-classifier.jar [--server-max-version 1.2|1.3] [--max-hello-length N] FILE...}
 *
 * <p>Prints one JSON object per file and line (docs/verdicts.md). {@code -} reads standard input.
 * Exit status: 0 when every file was read, whatever the verdicts; 2 on a usage error or when a file
 * could not be read (the other files are still classified).
 */
public final class ClassifyCommand {
    static final int OK = 0;
    static final int USAGE = 2;

    private static final String USAGE_TEXT =
            "usage: ssl-classifier [--server-max-version 1.2|1.3] [--max-hello-length BYTES] FILE...\n"
            + "  Classifies the first bytes a TLS client sent (one capture per FILE, - for stdin)\n"
            + "  and prints one JSON line per file.";

    private ClassifyCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        String maxVersion = "1.3";
        int maxHelloLength = ServerPolicy.DEFAULT.maxHelloLength();
        List<String> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--server-max-version") || arg.equals("--max-hello-length")) {
                if (i + 1 == args.length) {
                    err.println(arg + " needs a value\n" + USAGE_TEXT);
                    return USAGE;
                }
                String value = args[++i];
                if (arg.equals("--server-max-version")) {
                    maxVersion = value;
                } else {
                    try {
                        maxHelloLength = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        err.println("--max-hello-length must be a whole number of bytes, was '" + value + "'");
                        return USAGE;
                    }
                }
            } else if (arg.equals("-h") || arg.equals("--help")) {
                out.println(USAGE_TEXT);
                return OK;
            } else if (arg.startsWith("--")) {
                err.println("unknown option " + arg + "\n" + USAGE_TEXT);
                return USAGE;
            } else {
                files.add(arg);
            }
        }
        if (files.isEmpty()) {
            err.println(USAGE_TEXT);
            return USAGE;
        }
        ServerPolicy policy;
        try {
            policy = ServerPolicy.of(maxVersion, maxHelloLength);
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return USAGE;
        }
        ClientHelloClassifier classifier = new ClientHelloClassifier(policy);
        ClientHello hello = new ClientHello();
        int status = OK;
        for (String file : files) {
            byte[] bytes;
            try {
                bytes = file.equals("-") ? System.in.readAllBytes() : Files.readAllBytes(Path.of(file));
            } catch (IOException | RuntimeException e) {
                err.println("cannot read " + file + ": " + e);
                status = USAGE;
                continue;
            }
            classifier.classify(ByteBuffer.wrap(bytes), hello);
            out.println(hello.toJson(file));
        }
        out.flush();
        return status;
    }
}
