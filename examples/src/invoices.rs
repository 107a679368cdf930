//! An invoices server: one tool of each form the toolkit supports, an invoice resource template,
//! payment terms and a prompt beside them, and an MCP Apps view of an invoice.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

use mcp_tool_runtime::completion::Complete;
use mcp_tool_runtime::content::EmbeddedResource;
use mcp_tool_runtime::context::{ClientRequestError, Elicitation, LogLevel, SamplingRequest};
use mcp_tool_runtime::prompt::Messages;
use mcp_tool_runtime::resource::{IntoContents, Json};
use mcp_tool_runtime::{
    Content, ProtocolError, RegistrationError, ResourceLink, ServerDefaults, ToolContext, Toolbox,
    mcp_prompt, mcp_resource, mcp_tool, tools,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Where an invoice stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Sent, not yet paid.
    Open,
    /// Paid in full.
    Paid,
}

/// One line of an invoice.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Line {
    /// What was sold.
    pub item: String,
    /// How many.
    pub quantity: u32,
    /// Price of one, in cents.
    pub unit_cents: u64,
}

/// An invoice.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Invoice {
    /// The invoice number, like `INV-1`.
    pub number: String,
    /// Who pays.
    pub customer: String,
    /// Where it stands.
    pub status: Status,
    /// What was sold.
    pub lines: Vec<Line>,
    /// The sum of the lines, in cents.
    pub total_cents: u64,
}

/// The in-memory store the tools share.
pub struct Store {
    invoices: Mutex<BTreeMap<String, Invoice>>,
}

impl Store {
    /// A store holding two invoices, `INV-1` (open) and `INV-2` (paid).
    pub fn seeded() -> Store {
        let store = Store {
            invoices: Mutex::new(BTreeMap::new()),
        };
        for (customer, status, item, quantity, unit_cents) in [
            ("Acme Corp", Status::Open, "Anvil", 2, 4_999),
            ("Zoë's Café", Status::Paid, "Espresso beans", 3, 1_250),
        ] {
            let lines = vec![Line {
                item: item.into(),
                quantity,
                unit_cents,
            }];
            store.insert(customer.into(), status, lines);
        }
        store
    }

    fn insert(&self, customer: String, status: Status, lines: Vec<Line>) -> Invoice {
        let mut invoices = self.invoices.lock().unwrap_or_else(|e| e.into_inner());
        let number = format!("INV-{}", invoices.len() + 1);
        let total_cents = lines
            .iter()
            .map(|l| u64::from(l.quantity) * l.unit_cents)
            .sum();
        let invoice = Invoice {
            number: number.clone(),
            customer,
            status,
            lines,
            total_cents,
        };
        invoices.insert(number, invoice.clone());
        invoice
    }

    /// The numbers of every invoice, in order.
    fn numbers(&self) -> Vec<String> {
        let invoices = self.invoices.lock().unwrap_or_else(|e| e.into_inner());
        invoices.keys().cloned().collect()
    }

    fn get(&self, number: &str) -> Result<Invoice, InvoiceError> {
        let invoices = self.invoices.lock().unwrap_or_else(|e| e.into_inner());
        invoices
            .get(number)
            .cloned()
            .ok_or_else(|| InvoiceError::NotFound(number.to_owned()))
    }
}

/// Why an invoice operation failed; the message is what the client sees.
#[derive(Debug)]
pub enum InvoiceError {
    /// No invoice has this number.
    NotFound(String),
    /// The new invoice is not valid.
    Invalid(String),
}

impl std::fmt::Display for InvoiceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InvoiceError::NotFound(n) => {
                write!(f, "no invoice numbered `{n}`; list_invoices shows them all")
            }
            InvoiceError::Invalid(why) => write!(f, "invalid invoice: {why}"),
        }
    }
}

/// The arguments of `create_invoice`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct NewInvoice {
    /// Who pays.
    pub customer: String,
    /// What was sold; at least one line.
    pub lines: Vec<Line>,
}

/// A row of `list_invoices`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct InvoiceSummary {
    /// The invoice number.
    pub number: String,
    /// Who pays.
    pub customer: String,
    /// Where it stands.
    pub status: Status,
    /// The total, in cents.
    pub total_cents: u64,
}

/// Look up an invoice by its number. Returns nothing when no invoice has that number. A host
/// that renders MCP Apps shows it in the invoice view.
#[mcp_tool(
    include_output_schema,
    include_structured_content,
    allow_none,
    annotations(read_only),
    ui = "ui://invoices/view",
    icons("data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=")
)]
pub async fn get_invoice(#[state] store: &Store, number: String) -> Option<Invoice> {
    store.get(&number).ok()
}

/// List invoices, optionally only those with one status.
#[mcp_tool(annotations(read_only))]
pub fn list_invoices(
    #[state] store: &Store,
    #[arg(description = "Only invoices with this status.")] status: Option<Status>,
) -> Vec<InvoiceSummary> {
    let invoices = store.invoices.lock().unwrap_or_else(|e| e.into_inner());
    invoices
        .values()
        .filter(|i| status.is_none_or(|s| s == i.status))
        .map(|i| InvoiceSummary {
            number: i.number.clone(),
            customer: i.customer.clone(),
            status: i.status,
            total_cents: i.total_cents,
        })
        .collect()
}

/// Count invoices, optionally only those with one status.
#[mcp_tool(annotations(read_only))]
pub fn count_invoices(
    #[state] store: &Store,
    #[arg(description = "Only invoices with this status.")] status: Option<Status>,
) -> usize {
    let invoices = store.invoices.lock().unwrap_or_else(|e| e.into_inner());
    invoices
        .values()
        .filter(|i| status.is_none_or(|s| s == i.status))
        .count()
}

/// Where one invoice stands.
#[mcp_tool(annotations(read_only))]
pub fn invoice_status(#[state] store: &Store, number: String) -> Result<Status, InvoiceError> {
    store.get(&number).map(|invoice| invoice.status)
}

/// Create an open invoice. Every line needs an item and a quantity of at least 1.
#[mcp_tool(annotations(destructive = false))]
pub async fn create_invoice(
    #[state] store: &Store,
    #[args] new: NewInvoice,
) -> Result<Invoice, InvoiceError> {
    if new.customer.trim().is_empty() {
        return Err(InvoiceError::Invalid("`customer` must not be empty".into()));
    }
    if new.lines.is_empty() {
        return Err(InvoiceError::Invalid(
            "an invoice needs at least one line".into(),
        ));
    }
    if let Some(i) = new.lines.iter().position(|l| l.quantity == 0) {
        return Err(InvoiceError::Invalid(format!("line {i} has quantity 0")));
    }
    Ok(store.insert(new.customer, Status::Open, new.lines))
}

/// Mark an invoice as paid. Over HTTP with authorization, the caller's token must grant
/// `invoices:write`.
#[mcp_tool(annotations(idempotent), scopes("invoices:write"))]
pub fn mark_paid(#[state] store: &Store, number: String) -> Result<(), InvoiceError> {
    let mut invoices = store.invoices.lock().unwrap_or_else(|e| e.into_inner());
    let invoice = invoices
        .get_mut(&number)
        .ok_or_else(|| InvoiceError::NotFound(number.clone()))?;
    invoice.status = Status::Paid;
    Ok(())
}

/// Mark an invoice as paid from its view, and return it as it now stands: called back by the
/// invoice view through the host (MCP Apps), never offered to the model.
#[mcp_tool(visibility(app), annotations(idempotent), scopes("invoices:write"))]
pub fn settle_invoice(#[state] store: &Store, number: String) -> Result<Invoice, InvoiceError> {
    mark_paid(store, number.clone())?;
    store.get(&number)
}

/// The invoice view (MCP Apps): HTML the host renders beside `get_invoice`'s result, in a
/// sandboxed iframe. It loads the ext-apps `App` class from jsDelivr and wants a border.
#[mcp_resource(
    uri = "ui://invoices/view",
    name = "invoice-view",
    title = "Invoice",
    ui(resource_domains("https://cdn.jsdelivr.net"), prefers_border = true)
)]
pub fn invoice_view() -> &'static str {
    include_str!("../assets/invoice-view.html")
}

/// A status badge for an invoice, as a 16x16 PNG: green when paid, amber when open.
#[mcp_tool(content = image, mime_type = "image/png", annotations(read_only))]
pub fn invoice_badge(#[state] store: &Store, number: String) -> Result<Vec<u8>, InvoiceError> {
    Ok(match store.get(&number)?.status {
        Status::Paid => include_bytes!("../assets/paid-badge.png").to_vec(),
        Status::Open => include_bytes!("../assets/open-badge.png").to_vec(),
    })
}

/// Links to an invoice's documents: its PDF and its CSV export.
#[mcp_tool(content = resource_link, annotations(read_only))]
pub fn invoice_documents(
    #[state] store: &Store,
    number: String,
) -> Result<Vec<ResourceLink>, InvoiceError> {
    let invoice = store.get(&number)?;
    let link = |ext: &str, mime: &str| ResourceLink {
        mime_type: Some(mime.to_owned()),
        title: Some(format!("{} for {}", invoice.number, invoice.customer)),
        ..ResourceLink::new(
            format!("invoices://{}/{}.{ext}", invoice.number, invoice.number),
            format!("{}.{ext}", invoice.number),
        )
    };
    Ok(vec![
        link("pdf", "application/pdf"),
        link("csv", "text/csv"),
    ])
}

/// An invoice as one line of text, for clients that only read text.
#[mcp_tool(
    include_structured_content = false,
    include_output_schema = false,
    annotations(read_only)
)]
pub fn format_invoice(#[state] store: &Store, number: String) -> Result<String, InvoiceError> {
    let i = store.get(&number)?;
    Ok(format!(
        "{} · {} · {:?} · {}.{:02}",
        i.number,
        i.customer,
        i.status,
        i.total_cents / 100,
        i.total_cents % 100
    ))
}

/// What `audit_invoices` found.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AuditReport {
    /// How many invoices were checked.
    pub checked: usize,
    /// The invoices still open.
    pub open: Vec<String>,
}

/// Audit every invoice, one at a time (slowly: `delay_ms` per invoice, 200 by default).
/// Reports progress per invoice, logs what it finds, and stops as soon as the client cancels.
#[mcp_tool(annotations(read_only))]
pub async fn audit_invoices(
    ctx: &ToolContext,
    #[state] store: &Store,
    #[arg(description = "Milliseconds to spend on each invoice.")] delay_ms: Option<u64>,
) -> Result<AuditReport, String> {
    let invoices: Vec<Invoice> = {
        let invoices = store.invoices.lock().unwrap_or_else(|e| e.into_inner());
        invoices.values().cloned().collect()
    };
    let total = invoices.len() as f64;
    let delay = Duration::from_millis(delay_ms.unwrap_or(200));
    let mut open = Vec::new();
    for (i, invoice) in invoices.iter().enumerate() {
        // Served, a cancelled call is dropped at its next await anyway; selecting on
        // `cancelled()` is for work that must stop cleanly, or that runs outside the call.
        tokio::select! {
            () = tokio::time::sleep(delay) => {}
            () = ctx.cancelled() => return Err("the audit was cancelled".into()),
        }
        ctx.log(LogLevel::Debug, format!("checked {}", invoice.number))
            .await;
        if invoice.status == Status::Open {
            ctx.log(
                LogLevel::Warning,
                format!("{} is still open", invoice.number),
            )
            .await;
            open.push(invoice.number.clone());
        }
        ctx.progress_with_message(
            (i + 1) as f64,
            Some(total),
            format!("checked {}", invoice.number),
        )
        .await;
    }
    ctx.log(
        LogLevel::Info,
        format!("audited {} invoices", invoices.len()),
    )
    .await;
    Ok(AuditReport {
        checked: invoices.len(),
        open,
    })
}

/// The form `send_reminder` asks the user to fill in.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ReminderChoice {
    /// Send the reminder?
    pub send: bool,
    /// A personal note to add.
    pub note: Option<String>,
}

/// What `send_reminder` did.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Reminder {
    /// The invoice.
    pub number: String,
    /// Whether it was sent.
    pub sent: bool,
    /// Its text.
    pub text: String,
}

/// Remind a customer of an open invoice: asks the user to confirm (elicitation), and has the
/// client's model draft the text (sampling) when the client offers one.
#[mcp_tool]
pub async fn send_reminder(
    ctx: &ToolContext,
    #[state] store: &Store,
    number: String,
) -> Result<Reminder, String> {
    let invoice = store.get(&number).map_err(|e| e.to_string())?;
    let choice = ctx
        .elicit::<ReminderChoice>(
            "confirm",
            format!(
                "Send {} a reminder for {}?",
                invoice.customer, invoice.number
            ),
        )
        .await
        .map_err(|e| e.to_string())?;
    let Elicitation::Accepted(ReminderChoice { send: true, note }) = choice else {
        return Ok(Reminder {
            number,
            sent: false,
            text: String::new(),
        });
    };
    let prompt = format!(
        "Write a one-sentence, polite payment reminder to {} for invoice {} ({} cents).",
        invoice.customer, invoice.number, invoice.total_cents
    );
    let draft = match ctx.sample("draft", SamplingRequest::new(prompt, 200)).await {
        Ok(message) => message.text().unwrap_or_default().to_owned(),
        Err(ClientRequestError::NotSupported(_)) => format!(
            "Dear {}, invoice {} is still open.",
            invoice.customer, invoice.number
        ),
        Err(e) => return Err(e.to_string()),
    };
    let text = match note {
        Some(note) => format!("{draft} {note}"),
        None => draft,
    };
    Ok(Reminder {
        number,
        sent: true,
        text,
    })
}

/// An invoice, by its number, as JSON.
#[mcp_resource(
    uri = "invoices://{number}",
    mime_type = "application/json",
    title = "Invoice"
)]
pub fn invoice(
    #[state] store: &Store,
    #[arg(complete = invoice_numbers)] number: String,
) -> Option<Invoice> {
    store.get(&number).ok()
}

/// The numbers of the invoices, to complete an invoice number with.
fn invoice_numbers(complete: &Complete<'_>) -> Vec<String> {
    complete
        .state::<Store>()
        .map(Store::numbers)
        .unwrap_or_default()
}

/// When invoices are due, and how to pay them.
#[mcp_resource(
    uri = "terms://payment",
    mime_type = "text/markdown",
    title = "Payment terms"
)]
pub fn payment_terms() -> &'static str {
    "# Payment terms\n\nInvoices are due 30 days after they are sent, by bank transfer."
}

/// The tone of a payment reminder.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Tone {
    /// Polite, for a first reminder.
    Gentle,
    /// Direct, for an invoice long overdue.
    Firm,
}

/// Draft a reminder for an open invoice: the invoice itself is embedded, so the model sees
/// exactly what is owed. A paid invoice is refused.
#[mcp_prompt(title = "Chase a payment")]
pub fn chase_payment(
    #[state] store: &Store,
    #[arg(description = "The invoice number, like INV-1", complete = invoice_numbers)]
    number: String,
    #[arg(description = "How firm the reminder is")] tone: Option<Tone>,
) -> Result<Messages, ProtocolError> {
    let invoice = store
        .get(&number)
        .map_err(|e| ProtocolError::invalid_params(e.to_string()))?;
    if invoice.status == Status::Paid {
        return Err(ProtocolError::invalid_params(format!(
            "invoice {number} is paid: there is nothing to chase"
        )));
    }
    let uri = format!("invoices://{number}");
    let [resource] = <[_; 1]>::try_from(Json(&invoice).into_contents(&uri, None)?)
        .map_err(|_| ProtocolError::internal("one invoice is one resource"))?;
    let tone = match tone.unwrap_or(Tone::Gentle) {
        Tone::Gentle => "polite",
        Tone::Firm => "firm but courteous",
    };
    Ok(Messages::new()
        .user_content(Content::Resource(EmbeddedResource {
            resource,
            annotations: None,
        }))
        .user(format!(
            "Write a {tone} payment reminder to {} for invoice {number} above, quoting its total.",
            invoice.customer
        ))
        .description(format!("A reminder for {number}")))
}

/// The invoices toolbox, with a seeded store.
pub fn toolbox() -> Result<Toolbox, RegistrationError> {
    toolbox_with(ServerDefaults::default())
}

/// The invoices toolbox with these server defaults (the strict schema profile, say).
pub fn toolbox_with(defaults: ServerDefaults) -> Result<Toolbox, RegistrationError> {
    let mut toolbox = Toolbox::with_defaults(defaults);
    toolbox.insert_state(Store::seeded());
    // The view first: a tool naming it is refused until it is served.
    toolbox.register_resource(invoice_view::resource())?;
    toolbox.register_all(tools![
        get_invoice,
        list_invoices,
        count_invoices,
        invoice_status,
        create_invoice,
        mark_paid,
        invoice_badge,
        invoice_documents,
        format_invoice,
        audit_invoices,
        send_reminder,
        settle_invoice,
    ])?;
    toolbox
        .register_resource(invoice::resource())?
        .register_resource(payment_terms::resource())?
        .register_prompt(chase_payment::prompt())?;
    Ok(toolbox)
}
