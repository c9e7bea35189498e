// The seat map. Free seats can be chosen; "held" means the bouncer (the Redis lock) says someone is booking
// that seat right now; "booked" is what the referee (PostgreSQL) decided. The map updates in place, touching
// only the seats whose state changed, so keyboard focus and the chosen seat survive: the replica pushes each
// change (server-sent events) while the page is visible; where it will not (it streams to as many pages as it
// may, or the browser has no EventSource), the page asks every 2 s instead.
const $ = (id) => document.getElementById(id);
const POLL_MS = 2000;
const REQUEST_TIMEOUT_MS = 20000; // the server answers within about 10 s even when its database link is dark
const WORDS = { FREE: 'free', HELD: 'someone is booking it', BOOKED: 'booked', YOURS: 'yours' };

let eventId = new URLSearchParams(location.search).get('event');
let chosen = null;   // the seat label the buyer picked
let attempt = null;  // {seat, name, buyer, key, unknown}: kept after an unknown outcome so "Book" again cannot book twice
let submitting = false;
let current = null;  // the seat button that holds the keyboard focus stop (roving tabindex)
const seatButtons = new Map(); // label -> button
const rows = [];               // rows[r][c] -> button, for arrow-key movement

const seatsUrl = () => `/api/events/${encodeURIComponent(eventId)}/seats`;
// Seats booked from this browser, per event: read from localStorage once, written through on each booking.
let mySeats = new Set();
const mineKey = () => `seatlock:mine:${eventId}`;
function loadMine() {
    mySeats = new Set(JSON.parse(localStorage.getItem(mineKey()) || '[]'));
}
function rememberMine(seat) {
    mySeats.add(seat);
    localStorage.setItem(mineKey(), JSON.stringify([...mySeats]));
}

function newKey() {
    if (crypto.randomUUID) return crypto.randomUUID();
    return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Shows one outcome: a bold headline, a sentence, and optionally a code (the booking id). */
function say(kind, headline, text, code) {
    const box = $('message');
    const strong = document.createElement('strong');
    strong.textContent = headline;
    const parts = [strong, document.createTextNode(text || '')];
    if (code) {
        const c = document.createElement('code');
        c.id = 'booking-id';
        c.textContent = code;
        parts.push(document.createTextNode(' Booking id: '), c);
    }
    box.replaceChildren(...parts);
    box.className = kind;
    box.dataset.outcome = kind;
}

function clearMessage() {
    $('message').replaceChildren();
    $('message').className = '';
    delete $('message').dataset.outcome;
}

async function getJson(url) {
    const res = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const body = await res.json().catch(() => ({}));
    return { ok: res.ok, status: res.status, body };
}

function showNotFound(detail, events) {
    document.title = 'Event not found · seatlock tickets';
    $('event-name').textContent = 'Event not found';
    $('not-found-detail').textContent = detail;
    $('event-list').replaceChildren(...events.map((e) => {
        const li = document.createElement('li');
        const a = document.createElement('a');
        a.href = `/?event=${encodeURIComponent(e.id)}`;
        a.textContent = e.name;
        li.append(a);
        return li;
    }));
    if (events.length === 0) $('event-list').replaceChildren(Object.assign(document.createElement('li'), { textContent: 'none right now' }));
    $('not-found').hidden = false;
    $('panel').hidden = true;
}

let startRetryMs = POLL_MS; // doubles up to 30 s while the box office cannot be reached

/** The page could not load: say so, with the server's own words if it sent a problem, and try again. */
function retryStart(headline, problem) {
    const detail = problem && typeof problem.detail === 'string' ? ` ${problem.detail}` : '';
    say('error', headline, `${detail} Trying again in ${Math.round(startRetryMs / 1000)} s.`);
    setTimeout(start, startRetryMs);
    startRetryMs = Math.min(startRetryMs * 2, 30000);
}

async function start() {
    let res;
    try {
        res = await getJson('/api/events');
    } catch (e) {
        res = null;
    }
    if (!res || !res.ok || !Array.isArray(res.body)) {
        retryStart('The box office cannot be reached.', res && res.body);
        return;
    }
    const events = res.body;
    if (!eventId && events.length > 0) eventId = events[0].id;
    const event = events.find((e) => e.id === eventId);
    if (!event) {
        clearMessage();
        showNotFound(eventId ? `There is no event called “${eventId}”.` : 'No events are on sale right now.', events);
        return;
    }
    document.title = `${event.name} · choose your seat`;
    $('event-name').textContent = event.name;
    $('event-when').textContent = new Date(event.startsAt).toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'short' });
    let seats;
    try {
        seats = await getJson(seatsUrl());
    } catch (e) {
        seats = null;
    }
    if (seats && seats.status === 404) {
        clearMessage();
        showNotFound(seats.body.detail || `The seats of “${eventId}” cannot be shown.`, events);
        return;
    }
    if (!seats || !seats.ok || !Array.isArray(seats.body)) {
        retryStart('The seats cannot be shown right now.', seats && seats.body);
        return;
    }
    clearMessage();
    loadMine();
    build(seats.body);
    $('hall').hidden = false;
    watch();
}

let stream = null;   // the EventSource while the map is pushed
let polling = null;  // the interval once the page asks instead

function watch() {
    if (document.hidden || stream || polling) return;
    if (!window.EventSource) {
        polling = setInterval(refresh, POLL_MS);
        return;
    }
    stream = new EventSource(`${seatsUrl()}/stream`);
    stream.onmessage = (e) => show(JSON.parse(e.data));                        // the whole map
    stream.addEventListener('change', (e) => show(JSON.parse(e.data)));       // only the seats that changed
    stream.onerror = () => {
        // While CONNECTING the EventSource tries again by itself; CLOSED means the replica refused the stream.
        if (stream && stream.readyState === EventSource.CLOSED) {
            stream = null;
            polling = setInterval(refresh, POLL_MS);
        }
    };
}

// A hidden page costs the replica nothing: its stream closes, and opens again when the page is shown.
document.addEventListener('visibilitychange', () => {
    if (document.hidden && stream) {
        stream.close();
        stream = null;
    } else if (!document.hidden && $('hall') && !$('hall').hidden) {
        watch();
    }
});

function parse(label) {
    const m = /^(\d+)([A-Z]+)$/.exec(label);
    return m ? { number: Number(m[1]), row: m[2] } : { number: 0, row: label };
}

function build(seats) {
    const byRow = new Map();
    for (const s of seats) {
        const { number, row } = parse(s.seat);
        if (!byRow.has(row)) byRow.set(row, []);
        byRow.get(row).push({ ...s, number });
    }
    const rowNames = [...byRow.keys()].sort((a, b) => a.length - b.length || a.localeCompare(b));
    const columns = Math.max(...[...byRow.values()].map((r) => r.length));
    $('seats').style.setProperty('--columns', columns); // the column sizes are the style sheet's, by screen width
    const grid = $('seats');
    grid.replaceChildren();
    rowNames.forEach((rowName, r) => {
        const rowEl = document.createElement('div');
        rowEl.setAttribute('role', 'row');
        const label = document.createElement('span');
        label.className = 'row-label';
        label.setAttribute('role', 'rowheader');
        label.textContent = rowName;
        rowEl.append(label);
        rows[r] = [];
        byRow.get(rowName).sort((a, b) => a.number - b.number).forEach((s, c) => {
            const cell = document.createElement('span');
            cell.setAttribute('role', 'gridcell');
            const b = document.createElement('button');
            b.type = 'button';
            b.className = 'seat';
            b.textContent = s.number;
            b.dataset.seat = s.seat;
            b.dataset.row = rowName;
            b.dataset.r = r;
            b.dataset.c = c;
            b.tabIndex = -1;
            b.addEventListener('click', () => pick(b));
            apply(b, s.status);
            seatButtons.set(s.seat, b);
            rows[r][c] = b;
            cell.append(b);
            rowEl.append(cell);
        });
        grid.append(rowEl);
    });
    const first = [...seatButtons.values()].find((b) => b.dataset.status === 'FREE') || rows[0][0];
    if (first) { first.tabIndex = 0; current = first; }
}

/** Sets a seat's state; returns true if it changed. */
function apply(b, status) {
    const shown = status === 'BOOKED' && mySeats.has(b.dataset.seat) ? 'YOURS' : status;
    if (b.dataset.status === shown) return false;
    if (b.dataset.status) b.classList.remove(b.dataset.status);
    b.classList.add(shown);
    b.dataset.status = shown;
    b.setAttribute('aria-disabled', String(shown !== 'FREE'));
    const { number } = parse(b.dataset.seat);
    b.setAttribute('aria-label', `row ${b.dataset.row} seat ${number}, ${WORDS[shown]}`);
    b.title = `${b.dataset.seat}: ${WORDS[shown]}`;
    return true;
}

async function refresh() {
    if (document.hidden || submitting) return;
    let res;
    try {
        res = await getJson(seatsUrl());
    } catch (e) {
        return; // the next poll tries again
    }
    if (res.ok) show(res.body);
}

/** Shows a map the replica sent; a chosen seat that someone else booked meanwhile is no longer offered. */
function show(seats) {
    for (const s of seats) {
        const b = seatButtons.get(s.seat);
        if (b && apply(b, s.status) && s.seat === chosen && !submitting && s.status === 'BOOKED') {
            if (attempt && attempt.unknown && attempt.seat === s.seat) {
                lookUp(attempt); // booked, but perhaps by our own attempt whose answer was lost
            } else {
                takenUnderUs(s.seat);
            }
        }
    }
}

/** Asks whether an attempt with an unknown outcome made a booking: its Idempotency-Key finds it if so. */
async function lookUp(a) {
    let res;
    try {
        res = await getJson(`/api/bookings?idempotency-key=${encodeURIComponent(a.key)}`);
    } catch (e) {
        return; // still unknown; "Book seat" again stays safe
    }
    if (res.ok) {
        booked(a.seat, a.buyer, res.body.bookingId);
    } else if (res.status === 404) {
        attempt = null;
        takenUnderUs(a.seat);
    }
}

function booked(seat, buyer, bookingId) {
    rememberMine(seat);
    attempt = null;
    unchoose();
    apply(seatButtons.get(seat), 'BOOKED');
    say('ok', `Booked: seat ${seat} is yours.`, ` A confirmation e-mail is on its way to ${buyer}.`, bookingId);
}

function takenUnderUs(seat) {
    unchoose();
    say('error', `Seat ${seat} was just taken.`, ' Another buyer booked it a moment before you; you were not booked. Please choose another seat.');
}

function pick(b) {
    focusSeat(b);
    const seat = b.dataset.seat;
    switch (b.dataset.status) {
        case 'FREE':
            choose(seat);
            break;
        case 'HELD':
            say('wait', `Someone is booking seat ${seat} right now.`, ' If they do not complete it, it frees up within seconds. Choose another seat, or try this one again shortly.');
            break;
        case 'YOURS':
            say('ok', `Seat ${seat} is yours.`, ' Your confirmation e-mail has the details.');
            break;
        default:
            say('info', `Seat ${seat} is already booked.`, ' Please choose a free seat.');
    }
}

function choose(seat) {
    if (chosen) seatButtons.get(chosen)?.classList.remove('CHOSEN');
    chosen = seat;
    seatButtons.get(seat).classList.add('CHOSEN');
    $('chosen').textContent = seat;
    $('booking').hidden = false;
    clearMessage();
    $('name').focus({ preventScroll: false });
}

function unchoose() {
    if (chosen) seatButtons.get(chosen)?.classList.remove('CHOSEN');
    const seat = chosen;
    chosen = null;
    $('booking').hidden = true;
    return seat;
}

function focusSeat(b) {
    if (current) current.tabIndex = -1;
    b.tabIndex = 0;
    current = b;
    b.focus();
}

$('seats').addEventListener('keydown', (e) => {
    const b = e.target.closest('button.seat');
    if (!b) return;
    let r = Number(b.dataset.r);
    let c = Number(b.dataset.c);
    switch (e.key) {
        case 'ArrowLeft': c -= 1; break;
        case 'ArrowRight': c += 1; break;
        case 'ArrowUp': r -= 1; break;
        case 'ArrowDown': r += 1; break;
        case 'Home': c = 0; break;
        case 'End': c = rows[r].length - 1; break;
        default: return;
    }
    const next = rows[r]?.[c];
    if (next) {
        e.preventDefault();
        focusSeat(next);
    }
});

$('cancel').addEventListener('click', () => {
    const seat = unchoose();
    attempt = null;
    say('info', 'No seat chosen.', ' Choose a free seat to book it.');
    if (seat) focusSeat(seatButtons.get(seat));
});

$('booking').addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!chosen || submitting) return;
    const seat = chosen;
    const name = $('name').value.trim();
    const buyer = $('email').value.trim();
    if (!attempt || attempt.seat !== seat || attempt.name !== name || attempt.buyer !== buyer) {
        attempt = { seat, name, buyer, key: newKey() };
    }
    submitting = true;
    $('book').disabled = true;
    $('book').textContent = 'Booking…';
    say('info', `Booking seat ${seat}…`, '');
    try {
        await book(attempt);
    } finally {
        submitting = false;
        $('book').disabled = false;
        $('book').textContent = 'Book seat';
    }
});

async function book({ seat, name, buyer, key }) {
    let res;
    let problem;
    try {
        res = await fetch(`/api/events/${encodeURIComponent(eventId)}/seats/${encodeURIComponent(seat)}/booking`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
            body: JSON.stringify({ name, buyer }),
            signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        problem = await res.json().catch(() => ({}));
    } catch (err) {
        // No answer: the booking may or may not have been saved. The same key makes a retry safe.
        outcomeUnknown(seat);
        return;
    }
    if (res.status === 201) {
        booked(seat, buyer, problem.bookingId);
        return;
    }
    const type = (problem.type || '').split('/').pop();
    switch (type) {
        case 'seat-busy': {
            const seconds = problem.retryAfterSeconds || Number(res.headers.get('Retry-After')) || 1;
            apply(seatButtons.get(seat), 'HELD');
            say('wait', `Someone is booking seat ${seat} right now.`,
                ` If they do not complete it, it frees up: try again in ${seconds} s, or choose another seat.`);
            break;
        }
        case 'seat-taken':
            attempt = null;
            apply(seatButtons.get(seat), 'BOOKED');
            takenUnderUs(seat);
            break;
        case 'outcome-unknown':
            outcomeUnknown(seat);
            break;
        case 'database-unavailable':
            // Nothing was written by this request; the key is kept, since an earlier attempt's outcome may be unknown.
            say('error', 'Booking is unavailable right now.', ' This attempt booked nothing. Please try again in a moment.');
            break;
        case 'invalid-request': {
            const fields = Object.entries(problem.errors || {}).map(([f, m]) => `${f === 'buyer' ? 'e-mail' : f}: ${m}`);
            say('error', 'Please check your details.', ` ${fields.join('; ') || problem.detail || ''}`);
            break;
        }
        default:
            say('error', `Seat ${seat} could not be booked.`, ` ${problem.detail || `The box office answered ${res.status}.`}`);
    }
}

function outcomeUnknown(seat) {
    attempt.unknown = true;
    say('wait', `We don't know yet whether seat ${seat} was booked.`,
        ' The connection broke while your booking was being saved. Press “Book seat” again: it is safe, it cannot book you twice. A confirmation e-mail also means it worked.');
}

start();
