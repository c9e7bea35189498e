// Seat map: shows FREE/HELD/BOOKED, books a free seat, and shows "confirmed" or the exact reason.
const params = new URLSearchParams(location.search);
let eventId = params.get('event');
let chosen = null;

const $ = (id) => document.getElementById(id);

async function load() {
    if (!eventId) {
        const events = await (await fetch('/api/events')).json();
        if (events.length === 0) { $('message').textContent = 'No events on sale.'; return; }
        eventId = events[0].id;
        $('event-name').textContent = events[0].name;
    }
    const seats = await (await fetch(`/api/events/${encodeURIComponent(eventId)}/seats`)).json();
    const grid = $('seats');
    grid.replaceChildren(...seats.map((s) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = `seat ${s.status}`;
        b.textContent = s.seat;
        b.dataset.seat = s.seat;
        b.dataset.status = s.status;
        b.disabled = s.status !== 'FREE';
        b.setAttribute('aria-label', `seat ${s.seat} ${s.status.toLowerCase()}`);
        b.addEventListener('click', () => choose(s.seat));
        return b;
    }));
}

function choose(seat) {
    chosen = seat;
    $('chosen').textContent = seat;
    $('booking').hidden = false;
    $('message').textContent = '';
}

function say(text, ok) {
    $('message').textContent = text;
    $('message').className = ok ? 'ok' : 'error';
}

$('cancel').addEventListener('click', () => { $('booking').hidden = true; });

$('booking').addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = JSON.stringify({ name: $('name').value, buyer: $('email').value });
    const res = await fetch(`/api/events/${encodeURIComponent(eventId)}/seats/${encodeURIComponent(chosen)}/booking`,
        { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    if (res.status === 201) {
        say(`Seat ${chosen} confirmed. A confirmation e-mail is on its way.`, true);
    } else {
        const problem = await res.json().catch(() => ({}));
        const type = (problem.type || '').split('/').pop();
        const reasons = {
            'seat-busy': `Someone is booking seat ${chosen} right now; try again in ${problem.retryAfterSeconds || 1} s.`,
            'seat-taken': `Seat ${chosen} was just taken.`,
        };
        say(reasons[type] || problem.detail || `Booking failed (${res.status}).`, false);
    }
    $('booking').hidden = true;
    await load();
});

load();
setInterval(load, 3000);
