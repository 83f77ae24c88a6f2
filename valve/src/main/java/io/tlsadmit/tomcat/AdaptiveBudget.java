package io.tlsadmit.tomcat;

import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.control.ControlDecision;

/** The JMX view of one connector's {@link AdmissionController}. */
final class AdaptiveBudget implements AdaptiveBudgetMXBean {

    private final String connector;
    private final AdmissionController controller;

    AdaptiveBudget(String connector, AdmissionController controller) {
        this.connector = connector;
        this.controller = controller;
    }

    @Override
    public String getConnector() {
        return connector;
    }

    @Override
    public double getCpusAllocated() {
        return controller.cpusAllocated();
    }

    @Override
    public String getCpuSource() {
        return controller.allocation().lastReading().source().name();
    }

    @Override
    public String getCpuCapacity() {
        return controller.getCpuCapacity().attributeValue();
    }

    @Override
    public double getNeighbourCpus() {
        return controller.allocation().lastReading().neighbourCpus();
    }

    @Override
    public double getCpusRequested() {
        return controller.cpusRequested();
    }

    @Override
    public double getCpusAssigned() {
        return controller.getCpusAssigned();
    }

    @Override
    public void setCpusAssigned(double cpus) {
        controller.setCpusAssigned(cpus);
    }

    @Override
    public double getFullHandshakesPerSecond() {
        return controller.fullHandshakesPerSecond();
    }

    @Override
    public double getAvailableTokens() {
        return controller.availableTokens();
    }

    @Override
    public long getBurst() {
        ControlDecision decision = controller.lastDecision();
        return decision == null ? controller.getFullHandshakeBurst() : decision.burst();
    }

    @Override
    public double getFullHandshakeCostMicros() {
        ControlDecision decision = controller.lastDecision();
        return decision == null ? controller.getInitialFullHandshakeCost() : decision.fullHandshakeCostNanos() / 1_000;
    }

    @Override
    public boolean isFullHandshakeCostMeasured() {
        ControlDecision decision = controller.lastDecision();
        return decision != null && decision.costMeasured();
    }

    @Override
    public double getBusyCpus() {
        ControlDecision decision = controller.lastDecision();
        return decision == null ? 0 : decision.busyCpus();
    }

    @Override
    public double getGuardFactor() {
        ControlDecision decision = controller.lastDecision();
        return decision == null ? 1 : decision.guardFactor();
    }

    @Override
    public double getCorrectionCpus() {
        ControlDecision decision = controller.lastDecision();
        return decision == null ? 0 : decision.correctionCpus();
    }

    @Override
    public double getCpuThreadsWaiting() {
        ControlDecision decision = controller.lastDecision();
        return decision == null || Double.isNaN(decision.threadsWaiting()) ? -1 : decision.threadsWaiting();
    }

    @Override
    public double getNewClientCostMicros() {
        ControlDecision decision = controller.lastDecision();
        return decision == null || Double.isNaN(decision.newClientCostNanos()) ? -1 : decision.newClientCostNanos() / 1_000;
    }

    @Override
    public double getFullHandshakeCostAtStartMicros() {
        long nanos = controller.fullHandshakeCostAtStartNanos();
        return nanos > 0 ? nanos / 1_000.0 : -1;
    }

    @Override
    public double getCompilerCpus() {
        ControlDecision decision = controller.lastDecision();
        return decision == null ? 0 : decision.transientCpus();
    }

    @Override
    public double getTargetUtilization() {
        return controller.getTargetUtilization();
    }

    @Override
    public void setTargetUtilization(double utilization) {
        controller.setTargetUtilization(utilization);
    }

    @Override
    public double getMinFullHandshakesPerSecond() {
        return controller.getMinFullHandshakesPerSecond();
    }

    @Override
    public void setMinFullHandshakesPerSecond(double rate) {
        controller.setMinFullHandshakesPerSecond(rate);
    }

    @Override
    public double getMaxFullHandshakesPerSecond() {
        return controller.getMaxFullHandshakesPerSecond();
    }

    @Override
    public void setMaxFullHandshakesPerSecond(double rate) {
        controller.setMaxFullHandshakesPerSecond(rate);
    }

    @Override
    public long getControlPeriod() {
        return controller.getControlPeriod();
    }
}
