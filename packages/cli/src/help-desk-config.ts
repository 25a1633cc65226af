import type { HandoffOptions } from '@treeagent/server';
import type { ConfigFields } from './config-fields.js';

type TeamOptions = NonNullable<HandoffOptions['teams']>[string];
type EscalationOptions = NonNullable<HandoffOptions['escalation']>;
type EscalationEmail = NonNullable<EscalationOptions['email']>;

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const RANGE = /^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-4]):[0-5]\d$/;
const POLICIES = ['manual', 'round-robin', 'least-busy'];

/**
 * The `helpDesk` section of `treeagent.config.json` as the server's `handoff` options (teams,
 * escalation, the handoff webhook; docs/handoff.md). Secrets come from the environment or 0600
 * files, never from the file itself. Throws naming the field and the fix.
 */
export function helpDeskOptions(section: ConfigFields): Partial<HandoffOptions> {
  section.only(['maxConcurrent', 'teams', 'webhook', 'escalation']);
  const maxConcurrent = section.integer('maxConcurrent', 1, 5);
  const teams = section.object('teams');
  const webhook = section.object('webhook');
  const escalation = section.object('escalation');
  const webhookOptions = webhook ? webhookOf(webhook) : undefined;
  return {
    ...(maxConcurrent === undefined ? {} : { maxConcurrent }),
    ...(teams ? { teams: teamsOf(teams) } : {}),
    ...(webhookOptions ? { webhook: webhookOptions } : {}),
    ...(escalation ? { escalation: escalationOf(escalation, webhookOptions !== undefined) } : {}),
  };
}

function teamsOf(teams: ConfigFields): Record<string, TeamOptions> {
  const result: Record<string, TeamOptions> = {};
  for (const name of Object.keys(teams.value)) {
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(name))
      throw teams.error(
        name,
        'is not a team name: use 1–64 letters, digits, ".", "_" or "-" (the queue a handoff names).',
      );
    result[name] = teamOf(teams.object(name)!);
  }
  return result;
}

function teamOf(team: ConfigFields): TeamOptions {
  team.only(['policy', 'maxConcurrent', 'hours', 'outOfHoursMessage', 'name']);
  const policy = team.string('policy', 'round-robin');
  if (policy !== undefined && !POLICIES.includes(policy))
    throw team.error('policy', `is "${policy}": use "manual", "round-robin" or "least-busy".`);
  const maxConcurrent = team.integer('maxConcurrent', 1, 3);
  const hours = team.object('hours');
  const outOfHoursMessage = team.string('outOfHoursMessage', 'We are closed: leave a message here.');
  const name = team.string('name', 'Billing');
  return {
    ...(policy ? { policy: policy as TeamOptions['policy'] } : {}),
    ...(maxConcurrent === undefined ? {} : { maxConcurrent }),
    ...(hours ? { hours: hoursOf(hours) } : {}),
    ...(outOfHoursMessage ? { outOfHoursMessage } : {}),
    ...(name ? { name } : {}),
  };
}

function hoursOf(hours: ConfigFields): NonNullable<TeamOptions['hours']> {
  hours.only(['timeZone', 'open']);
  const timeZone = hours.requiredString('timeZone', 'Europe/Rome');
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw hours.error(
      'timeZone',
      `"${timeZone}" is not an IANA time zone: write it like "Europe/Rome" or "America/New_York".`,
    );
  }
  const open = hours.object('open');
  if (!open)
    throw hours.error(
      'open',
      'is missing: write e.g. { "mon": ["09:00-18:00"] } (a day not listed is closed).',
    );
  const days: Record<string, string[]> = {};
  for (const day of Object.keys(open.value)) {
    if (!DAYS.includes(day)) throw open.error(day, `is not a day: name days ${DAYS.join(', ')}.`);
    const ranges = open.strings(day, ['09:00-13:00', '14:00-18:00'])!;
    for (const range of ranges) {
      const [from, to] = range.split('-');
      if (!RANGE.test(range) || (to ?? '') <= (from ?? ''))
        throw open.error(day, `has "${range}": write ranges like "09:00-18:00" (the end after the start).`);
    }
    days[day] = ranges;
  }
  return { timeZone, open: days };
}

function webhookOf(webhook: ConfigFields): NonNullable<HandoffOptions['webhook']> {
  webhook.only(['url', 'secretEnv', 'secretFile', 'secret']);
  return {
    url: webhook.url('url', 'https://helpdesk.example.com/treeagent', true)!,
    secret: webhook.secret('secret', true)!,
  };
}

function escalationOf(escalation: ConfigFields, hasWebhook: boolean): EscalationOptions {
  escalation.only(['afterMs', 'checkEveryMs', 'webhook', 'email']);
  const afterMs = escalation.integer('afterMs', 1, 600_000);
  if (afterMs === undefined)
    throw escalation.error(
      'afterMs',
      'is missing: how long a conversation may wait unclaimed, in milliseconds, e.g. 600000 (10 minutes).',
    );
  const checkEveryMs = escalation.integer('checkEveryMs', 1, 15_000);
  const webhook = escalation.boolean('webhook');
  if (webhook && !hasWebhook)
    throw escalation.error(
      'webhook',
      'is true but there is no "helpDesk.webhook": add { "url", "secretEnv" } there, or remove "webhook".',
    );
  const email = escalation.object('email');
  if (!email && !webhook)
    throw escalation.error('email', 'is missing: escalate by "email" (SMTP) and/or "webhook": true.');
  return {
    afterMs,
    ...(checkEveryMs === undefined ? {} : { checkEveryMs }),
    ...(webhook ? { webhook } : {}),
    ...(email ? { email: emailOf(email) } : {}),
  };
}

function emailOf(email: ConfigFields): EscalationEmail {
  email.only(['smtp', 'from', 'to', 'consoleUrl']);
  const smtp = email.object('smtp');
  if (!smtp)
    throw email.error(
      'smtp',
      'is missing: write { "host": "smtp.example.com", "port": 587, "user": "…", "passwordEnv": "SMTP_PASSWORD" }.',
    );
  smtp.only(['host', 'port', 'secure', 'user', 'passwordEnv', 'passwordFile', 'password']);
  const host = smtp.requiredString('host', 'smtp.example.com');
  const port = smtp.integer('port', 1, 587);
  const secure = smtp.boolean('secure');
  const user = smtp.string('user', 'helpdesk@example.com');
  const password = smtp.secret('password', user !== undefined);
  if (password !== undefined && user === undefined)
    throw smtp.error('user', 'is missing: a password needs the SMTP user it belongs to.');
  const from = email.requiredString('from', 'Tree Agent <helpdesk@example.com>');
  const consoleUrl = email.url('consoleUrl', 'https://agent.example.com');
  return {
    smtp: {
      host,
      ...(port === undefined ? {} : { port }),
      ...(secure === undefined ? {} : { secure }),
      ...(user !== undefined && password !== undefined ? { auth: { user, pass: password } } : {}),
    },
    from,
    to: recipientsOf(email),
    ...(consoleUrl ? { consoleUrl } : {}),
  };
}

/** `to`: one list for every team, or per team (`default` for the others). */
function recipientsOf(email: ConfigFields): EscalationEmail['to'] {
  const example = ['lead@example.com'];
  if (Array.isArray(email.value.to) || email.value.to === undefined) {
    const to = email.strings('to', example);
    if (!to?.length)
      throw email.error(
        'to',
        `is missing: write the recipients, e.g. ${JSON.stringify(example)}, or per team { "billing": [...], "default": [...] }.`,
      );
    return to;
  }
  const perTeam = email.object('to')!;
  return Object.fromEntries(
    Object.keys(perTeam.value).map((team) => [team, perTeam.strings(team, example)!]),
  );
}
