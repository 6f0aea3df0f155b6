package org.jvmreuse.it.programs;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Uses JDK services that start their threads on first use: CompletableFuture's delay scheduler
 * (orTimeout, delayedExecutor) and the default AsynchronousChannelGroup (a completion handler
 * runs on its threads). Prints whether each worked within a few seconds.
 */
public final class LazyJdkServices {
    private LazyJdkServices() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("orTimeout=" + orTimeout());
        System.out.println("delayedExecutor=" + CompletableFuture.supplyAsync(() -> "ran",
                CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS)).completeOnTimeout("never", 5, TimeUnit.SECONDS)
                .get(10, TimeUnit.SECONDS));
        System.out.println("channelGroup=" + echo());
    }

    private static String orTimeout() throws InterruptedException {
        try {
            new CompletableFuture<String>().orTimeout(200, TimeUnit.MILLISECONDS).get(5, TimeUnit.SECONDS);
            return "completed?";
        } catch (ExecutionException e) {
            return e.getCause() instanceof TimeoutException ? "fired" : e.toString();
        } catch (TimeoutException e) {
            return "never fired";
        }
    }

    private static String echo() throws Exception {
        try (AsynchronousServerSocketChannel server = AsynchronousServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             AsynchronousSocketChannel client = AsynchronousSocketChannel.open()) {
            CountDownLatch accepted = new CountDownLatch(1);
            server.accept(null, new CompletionHandler<AsynchronousSocketChannel, Void>() {
                @Override
                public void completed(AsynchronousSocketChannel channel, Void nothing) {
                    channel.write(ByteBuffer.wrap("hello".getBytes()));
                    accepted.countDown();
                }

                @Override
                public void failed(Throwable e, Void nothing) {
                    e.printStackTrace();
                }
            });
            client.connect(server.getLocalAddress()).get(5, TimeUnit.SECONDS);
            if (!accepted.await(5, TimeUnit.SECONDS)) {
                return "no accept handler ran";
            }
            ByteBuffer buffer = ByteBuffer.allocate(5);
            while (buffer.hasRemaining() && client.read(buffer).get(5, TimeUnit.SECONDS) >= 0) {
                // until the five bytes are in
            }
            return new String(buffer.array());
        }
    }
}
