import {
  type BaseAfterOutput,
  type ComponentDefinition,
  type ComponentNodeDefinitionItem,
  type Context,
  defineComponent,
  type Links,
  type LlmAfterSpecial,
} from '@treeagent/core';
import type { ParseClock } from '../slots/parse-types.js';
import type { FormLanguage } from '../slots/slot-definition.js';
import { checkFormOptions } from './check-form-options.js';
import { type FormPhase, readMessage } from './form-flow.js';
import type { FormOptions } from './form-options.js';
import { clearFormState, type FormState, loadFormState, newFormState, saveFormState } from './form-state.js';
import { askText, confirmText, formDebugSummary } from './form-texts.js';
import { extractionFormat, extractionPrompt, readExtraction } from './llm-extraction.js';
import { formMessages } from './messages.js';

/** The component's `self`: what the form's nodes pass each other within one interaction. */
export interface FormSelf {
  /** The form started in this interaction: the first question carries the intro. */
  intro?: boolean;
  /** What `onComplete` answered, for the done node. */
  completeMessage?: string;
  /** How the message reached the form before the LLM extraction read it. */
  llmFrom?: FormPhase;
}

/** Local ids of the form's nodes (`idBase + id` in the tree). */
export const FORM_NODE_IDS = {
  head: 1,
  entry: 2,
  ask: 3,
  confirm: 4,
  done: 5,
  cancelled: 6,
  resume: 7,
  extract: 8,
} as const;

/**
 * A form as a component (docs/forms.md): use it with `{ type: 'component', use: form({...}), idBase }`
 * under an agent, and wrap the agent's fallback with `formFallback` so replies that nothing else
 * takes come back to the form.
 *
 * Built from the tree's own nodes: an entry node the triggers lead to, an emit that asks, an emit
 * that confirms, emits for done and cancelled, a resume node, and (with `llm`) an llm node with a
 * JSON schema. Everything lives in the session state (`form:<name>`), so a form survives restarts,
 * and a question on another topic goes to exploration (reach_anchor) while the form waits.
 *
 * @example
 * { id: 50, type: 'component', parent: 2, idBase: 500, use: form({ name: 'riparazione', triggers: ['prenotare una riparazione'], slots }) }
 */
export function form(options: FormOptions): ComponentDefinition<FormSelf> {
  checkFormOptions(options);
  const { name, slots } = options;
  const messagesIn = { it: formMessages('it', options.messages), en: formMessages('en', options.messages) };
  /** The form's language in this session: its own, else the session's (docs/multilingual-trees.md), else Italian. */
  const languageOf = (context: Context): FormLanguage => {
    if (options.language) return options.language;
    const session = context.language?.split('-')[0];
    return session === 'en' || session === 'it' ? session : 'it';
  };
  const timeZone = options.timeZone ?? 'Europe/Rome';
  const clock = (): ParseClock => ({ now: options.now?.() ?? new Date(), timeZone });
  const maxReasks = options.maxReasks ?? 2;
  const expireAfterTurns = options.expireAfterTurns ?? 10;
  const confirm = options.confirm ?? true;
  const llm = Boolean(options.llm);
  const ids = FORM_NODE_IDS;
  const links: Record<string, number> = {
    ask: ids.ask,
    confirm: ids.confirm,
    done: ids.done,
    cancelled: ids.cancelled,
    resume: ids.resume,
  };
  if (llm) links.extract = ids.extract;

  const publish = (context: Context, state: FormState | undefined, status: string) => {
    if (options.debugMetadata === false) return;
    const forms = (context.metadata.serverMetadata.forms ?? {}) as Record<string, unknown>;
    forms[name] = formDebugSummary(state, status, slots, languageOf(context), timeZone);
    context.metadata.serverMetadata.forms = forms;
  };

  /** Reads the message in `phase` and goes where the form's flow says. */
  const advance = async (
    self: FormSelf,
    context: Context,
    phase: FormPhase,
    to: Links,
    llmResult?: ReturnType<typeof readExtraction>,
  ): Promise<BaseAfterOutput> => {
    const messages = messagesIn[languageOf(context)];
    const stored = loadFormState(context, name);
    const expired = stored && context.turn - stored.lastTurn > expireAfterTurns;
    const state = stored && !expired ? stored : newFormState(context.turn);
    if (phase === 'start' && (!stored || expired)) self.intro = true;
    const selected = context.input.original.trim().toLowerCase();
    const result = readMessage({
      state,
      text: context.input.original,
      selectedOption: [messages.yes, messages.no].find((option) => option.toLowerCase() === selected) ?? null,
      phase,
      ...(llmResult ? { llm: { ...llmResult, from: self.llmFrom ?? 'reply' } } : {}),
      turn: context.turn,
      slots,
      clock: clock(),
      context,
      confirm,
      maxReasks,
      llmAvailable: llm,
      yes: messages.yes,
      no: messages.no,
    });
    const next = result.state;
    next.log.push(result.entry);
    const resumeNodeId = to.resume;
    switch (result.step) {
      case 'ask':
      case 'confirm':
        saveFormState(context, name, next, resumeNodeId, expireAfterTurns);
        publish(context, next, result.step === 'confirm' ? 'confirming' : 'collecting');
        return { nodeTarget: result.step === 'ask' ? to.ask : to.confirm, step: 'before' };
      case 'llm':
        saveFormState(context, name, next, resumeNodeId, expireAfterTurns);
        self.llmFrom = phase;
        publish(context, next, 'extracting');
        return { nodeTarget: to.extract, step: 'before' };
      case 'explore':
        saveFormState(context, name, next, resumeNodeId, expireAfterTurns);
        publish(context, next, 'waiting');
        return { outcome: 'failure' };
      case 'complete': {
        const answer = await options.onComplete?.({ ...next.values }, context);
        self.completeMessage = typeof answer === 'string' ? answer : (answer?.message ?? messages.completed);
        clearFormState(context, name);
        publish(context, next, 'completed');
        return { nodeTarget: to.done, step: 'before' };
      }
      case 'cancel':
        clearFormState(context, name);
        publish(context, next, 'cancelled');
        return { nodeTarget: to.cancelled, step: 'before' };
      case 'give-up':
        clearFormState(context, name);
        publish(context, next, 'gave-up');
        return options.giveUpNode !== undefined
          ? { nodeTarget: options.giveUpNode, step: 'before' }
          : { outcome: 'failure' };
    }
  };

  const stateOf = (context: Context) => loadFormState(context, name) ?? newFormState(context.turn);
  const nodes: ComponentNodeDefinitionItem<FormSelf>[] = [
    { id: ids.head, type: 'head', name: `${name}: head` },
    {
      id: ids.entry,
      type: 'empty',
      parent: ids.head,
      name,
      isBlocking: true,
      chunks: options.triggers,
      links,
      after: (self, context, _special, to) => advance(self, context, 'start', to),
    },
    {
      id: ids.ask,
      type: 'emit',
      parent: ids.entry,
      name: `${name}: ask`,
      links,
      emit: (self, context) => ({
        message: {
          type: 'static',
          content: askText(
            stateOf(context),
            slots,
            messagesIn[languageOf(context)],
            languageOf(context),
            self.intro ? options.intro : undefined,
          ),
        },
      }),
      after: (self, context, _special, to) => advance(self, context, 'reply', to),
    },
    {
      id: ids.confirm,
      type: 'emit',
      parent: ids.entry,
      name: `${name}: confirm`,
      links,
      emit: (_self, context) => {
        const language = languageOf(context);
        const messages = messagesIn[language];
        return {
          message: {
            type: 'static',
            content: confirmText(stateOf(context), slots, messages, language, timeZone),
          },
          options: [messages.yes, messages.no],
        };
      },
      after: (self, context, _special, to) => advance(self, context, 'reply', to),
    },
    {
      id: ids.done,
      type: 'emit',
      parent: ids.entry,
      name: `${name}: done`,
      emit: (self, context) => ({
        message: {
          type: 'static',
          content: self.completeMessage ?? messagesIn[languageOf(context)].completed,
        },
      }),
    },
    {
      id: ids.cancelled,
      type: 'emit',
      parent: ids.entry,
      name: `${name}: cancelled`,
      emit: (_self, context) => ({
        message: { type: 'static', content: messagesIn[languageOf(context)].cancelled },
      }),
    },
    {
      id: ids.resume,
      type: 'empty',
      parent: ids.entry,
      name: `${name}: resume`,
      links,
      after: (self, context, _special, to) => advance(self, context, 'resumed', to),
    },
  ];
  if (llm) {
    const open = (context: Context) => {
      const state = stateOf(context);
      return slots.filter(
        (slot) => state.values[slot.name] === undefined && !state.skipped.includes(slot.name),
      );
    };
    nodes.push({
      id: ids.extract,
      type: 'llm',
      parent: ids.entry,
      name: `${name}: extract`,
      links,
      ...(typeof options.llm === 'object' && options.llm.model ? { model: options.llm.model } : {}),
      prompt: (_self, context) =>
        extractionPrompt(open(context), stateOf(context).values, context.input.original, clock()),
      responseFormat: (_self, context) => extractionFormat(open(context)),
      after: (self: FormSelf, context: Context, special: LlmAfterSpecial, to: Links) =>
        advance(
          self,
          context,
          'llm',
          to,
          special.failResponseFormat
            ? { extracted: [], misses: [] }
            : readExtraction(special.object, open(context), clock(), context),
        ),
    });
  }
  return defineComponent<FormSelf>({ name, nodes });
}
