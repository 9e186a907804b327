import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import LineChart from '@cloudscape-design/components/line-chart';
import type { TrainingMetricsAnswer } from '@domain/schemas/training.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { type JobRef, useJobMetrics } from './api.js';

/** Headings for the metrics the trainers' metric line reports; any other series keeps its MLflow name. */
const TITLES = new Map([
  ['loss', 'Loss'],
  ['tokens_per_second', 'Throughput (tokens/s)'],
  ['throughput', 'Throughput (tokens/s)'],
  ['learning_rate', 'Learning rate'],
]);

const formatValue = (v: number) =>
  Math.abs(v) >= 1000
    ? Math.round(v).toLocaleString()
    : Math.abs(v) < 0.01 && v !== 0
      ? v.toExponential(1)
      : String(Number(v.toPrecision(4)));

function SeriesChart({ series }: { series: TrainingMetricsAnswer['series'][number] }) {
  const title = TITLES.get(series.metric) ?? series.metric;
  const data = series.points.map((p) => ({ x: p.step, y: p.value }));
  return (
    <div data-testid="training-metric-chart" data-metric={series.metric} data-points={data.length}>
      <Box variant="h3">{title}</Box>
      <LineChart
        series={[{ title, type: 'line', data, valueFormatter: formatValue }]}
        height={180}
        hideFilter
        hideLegend
        xScaleType="linear"
        xTitle="Step"
        yTickFormatter={formatValue}
        ariaLabel={`${title} by step`}
        statusType="finished"
        empty={
          <Box textAlign="center" color="inherit">
            No points yet.
          </Box>
        }
      />
    </div>
  );
}

/**
 * Loss, throughput and learning rate by step, as the job reported them to its MLflow run (read
 * through the API, every page of the history). A job without a tracking server says so.
 */
export function JobMetrics({
  cluster,
  region,
  job,
  settled,
}: {
  cluster: string;
  region: string;
  job: JobRef;
  settled: boolean;
}) {
  const metrics = useJobMetrics(cluster, region, job, settled);
  const m = metrics.data;
  return (
    <Container
      data-testid="training-metrics"
      header={
        <Header
          variant="h2"
          description={
            m?.source === 'mlflow'
              ? `MLflow run ${m.runId ?? ''} on ${m.trackingServerArn ?? ''}`
              : "From the job's MLflow run."
          }
        >
          Metrics
        </Header>
      }
    >
      {metrics.isLoading && <Box color="text-status-inactive">Loading metrics…</Box>}
      {metrics.error && (
        <Alert type="error" header="The metrics could not be read">
          <ProblemText error={metrics.error} />
        </Alert>
      )}
      {m?.source === 'none' && (
        <Box color="text-status-inactive" data-testid="training-metrics-none">
          This job reports to no MLflow tracking server. Choose one when submitting (or link one to the cluster) to see
          loss, throughput and learning rate here.
        </Box>
      )}
      {m?.source === 'mlflow' && m.series.length === 0 && (
        <Box color="text-status-inactive">No metrics logged yet.</Box>
      )}
      {m?.source === 'mlflow' && m.series.length > 0 && (
        <ColumnLayout columns={Math.min(3, m.series.length) as 1 | 2 | 3}>
          {m.series.map((s) => (
            <SeriesChart key={s.metric} series={s} />
          ))}
        </ColumnLayout>
      )}
    </Container>
  );
}
