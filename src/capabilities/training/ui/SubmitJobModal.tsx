import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Cards from '@cloudscape-design/components/cards';
import Form from '@cloudscape-design/components/form';
import Header from '@cloudscape-design/components/header';
import Modal from '@cloudscape-design/components/modal';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { readableFieldMessage } from '@domain/field-labels.js';
import type { RecipeView, TrainingTemplate } from '@domain/schemas/training.js';
import { ProblemError } from '@kit/api/client.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useMemo, useState } from 'react';
import { useStorageList } from '../../storage/ui/index.js';
import { type SubmitJobAnswer, useRecipes, useSubmitJob, useTemplates } from './api.js';
import { CommonFields } from './CommonFields.js';
import { type CommonState, EMPTY_COMMON, requestOf, type Source, stateFromTemplate } from './job-request.js';
import { MODEL_PATH_PARAM, ModelPathField } from './ModelPathField.js';
import { ParamsForm } from './ParamsForm.js';
import { fieldsOf, initialValues } from './schema-form.js';

const CUSTOM_ID = '__custom__';
const wrap = { whiteSpace: 'normal', overflowWrap: 'anywhere' } as const;

interface Props {
  cluster: string;
  region: string;
  onDismiss(): void;
  onSubmitted(answer: SubmitJobAnswer): void;
}

/**
 * Submit a training job: pick a recipe (cards from the catalogue) or a custom container, or start
 * from a saved template; then a form generated from the recipe's JSON Schema plus the settings every
 * job has. The server's refusals (400/422 naming a field) show under that field.
 */
export function SubmitJobModal({ cluster, region, onDismiss, onSubmitted }: Props) {
  const recipes = useRecipes();
  const templates = useTemplates(cluster, region);
  const [chosen, setChosen] = useState<string | undefined>();
  const [common, setCommon] = useState<CommonState>(EMPTY_COMMON);
  const [values, setValues] = useState<Map<string, string | boolean>>();
  const [localProblems, setLocalProblems] = useState<Map<string, string>>(new Map());
  const submit = useSubmitJob(cluster, region, onSubmitted);
  const storageList = useStorageList(cluster, region);
  const namespaceStorages = (storageList.data?.storages ?? [])
    .filter((s) => s.namespace === (common.namespace.trim() || 'default'))
    .map((s) => s.name);
  const recipe: RecipeView | undefined = recipes.data?.recipes.find((r) => r.id === chosen);
  const fields = useMemo(() => (recipe ? fieldsOf(recipe.parameters) : []), [recipe]);
  const formValues = values ?? initialValues(fields);
  const custom = chosen === CUSTOM_ID;
  const source: Source | undefined = custom
    ? { custom: true }
    : recipe
      ? { recipe: recipe.id, kind: recipe.kind }
      : undefined;

  const choose = (id: string) => {
    setChosen(id);
    setValues(undefined);
    submit.reset();
    setLocalProblems(new Map());
  };
  const fromTemplate = (t: TrainingTemplate) => {
    const id = t.request.recipe ?? CUSTOM_ID;
    const r = recipes.data?.recipes.find((x) => x.id === id);
    const s = stateFromTemplate(t, r ? fieldsOf(r.parameters) : []);
    setChosen(id);
    setCommon({ ...s.common, name: '' });
    setValues(s.values);
    submit.reset();
  };

  const serverErrors = submit.error instanceof ProblemError ? (submit.error.problem.errors ?? []) : [];
  // Messages are fragments of the schema ("must be …"): shown under the field as a sentence naming it.
  const errorOf = (path: string) => {
    const message = localProblems.get(path) ?? serverErrors.find((e) => e.path === path)?.message;
    return message === undefined ? undefined : readableFieldMessage(path.replace(/^params\./, ''), message);
  };
  const shownPaths = new Set([
    ...fields.map((f) => `params.${f.name}`),
    'name',
    'namespace',
    'instanceGroup',
    'nodes',
    'storage',
    'mlflow',
    'image',
    'custom.image',
    'custom.command',
    'custom.args',
    'custom.launch',
    'elastic',
    'elastic.minReplicas',
    'elastic.maxReplicas',
    'checkpointless',
    'faultTolerance',
    'faultTolerance.jobMaxRetryCount',
    'faultTolerance.logMonitoring',
    'faultTolerance.logMonitoring.lowThroughput.tokensPerSecondBelow',
    'saveAsTemplate',
    'saveAsTemplate.name',
  ]);
  const unplaced = serverErrors.filter((e) => !shownPaths.has(e.path));

  const send = () => {
    if (!source) return;
    const { body, problems } = requestOf(source, common, fields, formValues);
    setLocalProblems(problems);
    if (problems.size === 0) submit.mutate(body);
  };

  const templateList = templates.data?.templates ?? [];
  const picker = (
    <SpaceBetween size="m">
      {templateList.length > 0 && (
        <Select
          data-testid="training-template-select"
          selectedOption={null}
          placeholder={`Start from a template (${templateList.length})`}
          options={templateList.map((t) => ({
            value: t.name,
            label: t.name,
            description: t.description ?? t.request.recipe ?? 'custom container',
          }))}
          onChange={({ detail }) => {
            const t = templateList.find((x) => x.name === detail.selectedOption.value);
            if (t) fromTemplate(t);
          }}
        />
      )}
      <Cards
        data-testid="training-recipe-cards"
        loading={recipes.isLoading}
        loadingText="Loading recipes"
        items={[
          ...(recipes.data?.recipes ?? []).map((r) => ({
            id: r.id,
            title: r.title,
            description: r.description,
            kind: r.kind,
            image: r.image.default,
          })),
          {
            id: CUSTOM_ID,
            title: 'Custom container',
            description:
              'Your own image (with the HyperPod elastic agent, hyperpodrun) and training script, run as a HyperPodPyTorchJob with the same placement, storage and fault tolerance.',
            kind: 'HyperPodPyTorchJob' as const,
            image: 'your image',
          },
        ]}
        trackBy="id"
        cardsPerRow={[{ cards: 1 }, { minWidth: 500, cards: 2 }]}
        cardDefinition={{
          header: (r) => (
            <Button variant="inline-link" onClick={() => choose(r.id)} data-testid={`training-recipe-${r.id}`}>
              {r.title}
            </Button>
          ),
          sections: [
            { id: 'description', content: (r) => <span style={wrap}>{r.description}</span> },
            { id: 'kind', header: 'Kind', content: (r) => r.kind },
            {
              id: 'image',
              header: 'Image',
              content: (r) => (
                <Box variant="code">
                  <span style={wrap}>{r.image}</span>
                </Box>
              ),
            },
          ],
        }}
      />
      {recipes.error && (
        <Alert type="error" header="The recipes could not be read">
          <ProblemText error={recipes.error} />
        </Alert>
      )}
    </SpaceBetween>
  );

  const form = source && (
    <Form>
      <SpaceBetween size="l">
        <Header
          variant="h3"
          description={custom ? 'Your own container.' : recipe?.description}
          actions={<Button onClick={() => choose('')}>Choose another recipe</Button>}
        >
          {custom ? 'Custom container' : recipe?.title}
        </Header>
        <CommonFields
          cluster={cluster}
          region={region}
          state={common}
          set={(p) => setCommon((c) => ({ ...c, ...p }))}
          kind={recipe?.kind ?? 'HyperPodPyTorchJob'}
          custom={custom}
          recipeImage={recipe?.image.default}
          errorOf={errorOf}
        />
        {fields.length > 0 && (
          <SpaceBetween size="s">
            <Header variant="h3" description="Generated from the recipe's parameter schema.">
              Recipe parameters
            </Header>
            <ParamsForm
              fields={fields}
              values={formValues}
              onChange={(name, v) => setValues(new Map(formValues).set(name, v))}
              errorOf={(name) => errorOf(`params.${name}`)}
              inputFor={(name, value, onChange) =>
                name === MODEL_PATH_PARAM ? (
                  <ModelPathField
                    cluster={cluster}
                    region={region}
                    value={value}
                    onChange={onChange}
                    storage={common.storage}
                    storages={namespaceStorages}
                    onStorage={(storage) => setCommon((c) => ({ ...c, storage }))}
                  />
                ) : undefined
              }
            />
          </SpaceBetween>
        )}
        {submit.error && (unplaced.length > 0 || serverErrors.length === 0) && (
          <Alert type="error" header="The job was not submitted" data-testid="training-submit-error">
            <ProblemText error={submit.error} />
          </Alert>
        )}
      </SpaceBetween>
    </Form>
  );

  return (
    <Modal
      visible
      size="large"
      onDismiss={onDismiss}
      header={`Submit a training job to ${cluster}`}
      data-testid="training-submit-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              disabled={!source}
              loading={submit.isPending}
              onClick={send}
              data-testid="training-submit"
            >
              Submit
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      {source ? form : picker}
    </Modal>
  );
}
