package io.tlsadmit.rubis.datagen;

/** Told as a load advances; {@code done} grows from 0 to {@code total} over users and items. */
@FunctionalInterface
public interface LoadProgress {

    void advanced(String phase, long done, long total);

    LoadProgress SILENT = (phase, done, total) -> { };
}
