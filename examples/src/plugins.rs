//! A server whose tools change while it serves: `install_plugin` adds a plugin's tool and
//! `remove_plugin` takes it away. The task that owns the server makes each change
//! ([`ToolboxServer::update`]), and every client hears of it through
//! `notifications/tools/list_changed`: on its session at 2025-x, on its `subscriptions/listen`
//! stream at 2026-07-28.

use mcp_tool_runtime::{Toolbox, ToolboxServer, mcp_tool};
use schemars::JsonSchema;
use serde::Deserialize;
use tokio::sync::{mpsc, oneshot};

/// The plugins there are, each with one tool.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Plugin {
    /// The `forecast` tool.
    Weather,
    /// The `roll_dice` tool.
    Dice,
}

impl Plugin {
    fn tool_name(self) -> &'static str {
        match self {
            Plugin::Weather => "forecast",
            Plugin::Dice => "roll_dice",
        }
    }
}

/// A change for the task that owns the server, with where to send how it went.
struct Change {
    plugin: Plugin,
    install: bool,
    done: oneshot::Sender<Result<(), String>>,
}

/// The tools' way to the task that owns the server: a tool has no handle on the server it runs
/// in, so it asks, and waits until the change is made and announced.
#[derive(Clone)]
pub struct Plugins(mpsc::Sender<Change>);

impl Plugins {
    async fn change(&self, plugin: Plugin, install: bool) -> Result<(), String> {
        let (done, outcome) = oneshot::channel();
        let change = Change {
            plugin,
            install,
            done,
        };
        let gone = || "the server is shutting down".to_owned();
        self.0.send(change).await.map_err(|_| gone())?;
        outcome.await.map_err(|_| gone())?
    }
}

/// Installs a plugin: its tool is listed and callable from now on.
#[mcp_tool]
pub async fn install_plugin(#[state] plugins: &Plugins, plugin: Plugin) -> Result<String, String> {
    plugins.change(plugin, true).await?;
    Ok(format!("installed `{}`", plugin.tool_name()))
}

/// Removes a plugin: its tool is no longer listed.
#[mcp_tool]
pub async fn remove_plugin(#[state] plugins: &Plugins, plugin: Plugin) -> Result<String, String> {
    plugins.change(plugin, false).await?;
    Ok(format!("removed `{}`", plugin.tool_name()))
}

/// The weather plugin's tool: tomorrow's weather in a city.
#[mcp_tool(annotations(read_only))]
pub fn forecast(city: String) -> String {
    format!("sunny in {city} tomorrow")
}

/// The dice plugin's tool: the sum of rolling `count` six-sided dice, by a fixed rule.
#[mcp_tool(annotations(read_only, idempotent))]
pub fn roll_dice(count: u8) -> u32 {
    (1..=u32::from(count)).map(|i| i % 6 + 1).sum()
}

fn apply(toolbox: &mut Toolbox, plugin: Plugin, install: bool) -> Result<(), String> {
    let name = plugin.tool_name();
    if !install {
        return if toolbox.remove(name) {
            Ok(())
        } else {
            Err(format!("`{name}` is not installed"))
        };
    }
    let registered = match plugin {
        Plugin::Weather => toolbox.register(forecast::tool()),
        Plugin::Dice => toolbox.register(roll_dice::tool()),
    };
    registered
        .map(drop)
        .map_err(|_| format!("`{name}` is already installed"))
}

/// The plugins server, and the task that changes its tools. Call it within a Tokio runtime; the
/// task runs as long as the process.
///
/// # Errors
/// A tool the toolbox or rmcp's model refuses.
pub fn server() -> Result<ToolboxServer, Box<dyn std::error::Error + Send + Sync>> {
    let (sender, mut changes) = mpsc::channel::<Change>(8);
    let mut toolbox = Toolbox::new();
    toolbox
        .insert_state(Plugins(sender))
        .register(install_plugin::tool())?
        .register(remove_plugin::tool())?;
    let server = ToolboxServer::new(toolbox)?;
    let owner = server.clone();
    tokio::spawn(async move {
        while let Some(change) = changes.recv().await {
            let outcome = owner
                .update(|toolbox| apply(toolbox, change.plugin, change.install))
                .await
                .map_err(|e| e.to_string());
            let _ = change.done.send(outcome);
        }
    });
    Ok(server)
}
