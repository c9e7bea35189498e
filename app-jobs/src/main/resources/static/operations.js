// The operations page: polls /api/operations every 2 s and redraws the tables (there is nothing to focus in them).
// When the replica cannot read its data the page says so and shows no figure as if it were current: figures
// never loaded stay "–", figures loaded before are marked with the time they are from.
const $ = (id) => document.getElementById(id);
const POLL_MS = 2000;

const time = (iso) => (iso ? new Date(iso).toLocaleTimeString() : '');
const dateTime = (iso) => (iso ? new Date(iso).toLocaleString() : '');
const money = (cents) => (cents / 100).toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const seconds = (ms) => (ms == null ? '' : `${(ms / 1000).toFixed(1)} s`);

function cell(content, className) {
    const td = document.createElement('td');
    if (content instanceof Node) td.append(content);
    else td.textContent = content ?? '';
    if (className) td.className = className;
    return td;
}

function badge(text, className) {
    const span = document.createElement('span');
    span.className = `badge ${className}`;
    span.textContent = text;
    return span;
}

/** Replaces a table's rows; an empty list shows why it is empty. Cells carry their column's name (phone layout). */
function fill(tableId, items, columns, emptyText) {
    const body = $(tableId).tBodies[0];
    const labels = [...$(tableId).tHead.rows[0].cells].map((th) => th.textContent);
    if (items.length === 0) {
        const tr = document.createElement('tr');
        const td = cell(emptyText, 'empty');
        td.colSpan = $(tableId).tHead.rows[0].cells.length;
        tr.append(td);
        body.replaceChildren(tr);
        return;
    }
    body.replaceChildren(...items.map((item) => {
        const tr = document.createElement('tr');
        columns(item).forEach((c, i) => {
            const td = cell(c);
            td.dataset.label = labels[i];
            tr.append(td);
        });
        return tr;
    }));
}

function render(view) {
    $('replica').textContent = view.replica;
    fill('leaders', view.leaders, (g) => [
        g.group,
        g.leader ?? badge('nobody', 'none'),
        g.epoch ?? '',
        seconds(g.leaseLeftMillis),
        g.thisReplicaLeads ? badge('leads', 'yes') : badge('follows', 'no'),
    ], 'No leader groups configured (seatlock.leader.groups).');
    for (const row of $('leaders').tBodies[0].rows) row.dataset.group = row.cells[0].textContent;

    fill('job-runs', view.jobRuns, (r) => [time(r.slot), r.job, r.runner],
        'No job has run yet: payment capture runs every 30 s.');

    $('captured').textContent = view.payments.captured;
    $('pending').textContent = view.payments.pending;
    $('captured-amount').textContent = money(view.payments.capturedCents);
    fill('payments', view.payments.recent, (p) => [
        p.id, money(p.amountCents), badge(p.state.toLowerCase(), p.state), p.capturedBy ?? '', time(p.capturedSlot),
    ], 'No payments yet.');

    $('accepted').textContent = view.fencing.acceptedHere;
    $('rejected').textContent = view.fencing.rejectedHere;
    $('rejected').classList.toggle('some', view.fencing.rejectedHere > 0);
    fill('leader-writes', view.fencing.recentWrites, (w) => [time(w.at), w.group, w.epoch, w.holder, w.action],
        'No leader has written yet.');

    fill('migrations', view.migrations, (m) => [m.version ?? 'repeatable', m.description, m.state, dateTime(m.installedOn)],
        'No migrations applied.');
}

let shownAt = null; // when the figures on the page were read, or null if none ever were

/** Why the last read failed: the problem's detail when the replica answered one, else what went wrong. */
async function reason(res) {
    try {
        const problem = await res.json();
        if (problem.detail) return problem.detail;
    } catch (ignored) {
        // not a problem document
    }
    return `HTTP ${res.status}`;
}

function unavailable(why) {
    const since = shownAt
        ? `The figures below are from ${shownAt.toLocaleTimeString()} and may be out of date.`
        : 'No figures can be shown until it can.';
    $('problem').textContent = `${why.replace(/\.+$/, '')}. ${since} Trying again every ${POLL_MS / 1000} s.`;
    $('problem').hidden = false;
    document.body.classList.toggle('stale', shownAt !== null);
    $('updated').textContent = shownAt ? `last updated ${shownAt.toLocaleTimeString()}` : 'not loaded';
    $('updated').dataset.state = 'stale';
}

async function refresh() {
    let res;
    try {
        res = await fetch('/api/operations', { signal: AbortSignal.timeout(10000) });
    } catch (e) {
        unavailable(`This replica does not answer (${e.message})`);
        return;
    }
    if (!res.ok) {
        unavailable(await reason(res));
        return;
    }
    render(await res.json());
    shownAt = new Date();
    $('problem').hidden = true;
    document.body.classList.remove('stale');
    $('updated').textContent = `updated ${shownAt.toLocaleTimeString()}`;
    $('updated').dataset.state = 'live';
}

refresh();
setInterval(() => { if (!document.hidden) refresh(); }, POLL_MS);
