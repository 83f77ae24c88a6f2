package io.tlsadmit.deploy;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1NetworkPolicy;
import io.kubernetes.client.openapi.models.V1Service;
import java.io.IOException;
import java.util.Map;

/**
 * The Kubernetes API's own schema for the built-in kinds, as the official Java client's models carry it (generated
 * from the Kubernetes 1.32 OpenAPI document, client-java 23.0.0): every field must be one the API defines, required
 * fields must be there, and values must have the field's type. A key the API does not know is an error, as
 * {@code kubectl apply --validate=strict} would report, rather than silently dropped by the API server.
 */
final class KubernetesSchema {

    private static final Gson GSON = new Gson();

    /** The built-in kinds deploy/k8s uses, with the apiVersion each is served under. */
    static final Map<String, String> API_VERSIONS = Map.of(
            "Deployment", "apps/v1",
            "Service", "v1",
            "ConfigMap", "v1",
            "NetworkPolicy", "networking.k8s.io/v1");

    private KubernetesSchema() {
    }

    static boolean isBuiltIn(String kind) {
        return API_VERSIONS.containsKey(kind);
    }

    /** @throws AssertionError saying what the schema rejects, and where */
    static void check(String source, Map<String, Object> manifest) {
        String kind = (String) manifest.get("kind");
        if (!API_VERSIONS.get(kind).equals(manifest.get("apiVersion"))) {
            throw new AssertionError(source + ": " + kind + " is served as " + API_VERSIONS.get(kind) + ", not "
                    + manifest.get("apiVersion"));
        }
        JsonElement json = GSON.toJsonTree(manifest);
        try {
            // validateJsonElement: unknown and missing fields, structure; fromJson: every value's type
            switch (kind) {
                case "Deployment" -> {
                    V1Deployment.validateJsonElement(json);
                    V1Deployment.fromJson(json.toString());
                }
                case "Service" -> {
                    V1Service.validateJsonElement(json);
                    V1Service.fromJson(json.toString());
                }
                case "ConfigMap" -> {
                    V1ConfigMap.validateJsonElement(json);
                    V1ConfigMap.fromJson(json.toString());
                }
                case "NetworkPolicy" -> {
                    V1NetworkPolicy.validateJsonElement(json);
                    V1NetworkPolicy.fromJson(json.toString());
                }
                default -> throw new AssertionError(source + ": no schema for kind " + kind);
            }
        } catch (IOException | RuntimeException e) {
            throw new AssertionError(source + ": the Kubernetes 1.32 schema rejects this " + kind + ": " + e.getMessage(), e);
        }
    }
}
