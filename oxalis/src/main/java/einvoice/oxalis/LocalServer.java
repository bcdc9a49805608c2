package einvoice.oxalis;

import com.google.inject.Injector;
import com.google.inject.Key;
import com.google.inject.TypeLiteral;
import com.google.inject.servlet.GuiceFilter;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import network.oxalis.api.settings.Settings;
import network.oxalis.commons.guice.GuiceModuleLoader;
import network.oxalis.inbound.OxalisGuiceContextListener;
import network.oxalis.server.jetty.JettyConf;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.DefaultServlet;
import org.eclipse.jetty.servlet.ServletContextHandler;

/**
 * Oxalis' inbound server, wired as its own network.oxalis.server.Main wires it, listening on the one address
 * it is given: Oxalis' Main listens on every interface (it has no setting for the address), and the embedded
 * stack keeps every component on 127.0.0.1. The port, context path and stop timeout are Oxalis' settings
 * (OXALIS_HOME/conf/oxalis.conf). Usage: LocalServer <address to listen on>.
 */
public final class LocalServer {

    private LocalServer() {
    }

    public static void main(String... args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: einvoice.oxalis.LocalServer <address to listen on>");
            System.exit(2);
        }
        Injector injector = GuiceModuleLoader.initiate();
        Settings<JettyConf> settings = injector.getInstance(Key.get(new TypeLiteral<Settings<JettyConf>>() { }));

        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost(args[0]);
        connector.setPort(settings.getInt(JettyConf.PORT));
        server.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler(server, settings.getString(JettyConf.CONTEXT_PATH));
        context.addFilter(GuiceFilter.class, "/*", EnumSet.allOf(DispatcherType.class));
        context.addEventListener(new OxalisGuiceContextListener(injector));
        context.addServlet(DefaultServlet.class, "/");
        server.setHandler(context);
        server.setStopTimeout(settings.getInt(JettyConf.STOP_TIMEOUT));
        server.setStopAtShutdown(true);

        server.start();
        server.join();
    }
}
